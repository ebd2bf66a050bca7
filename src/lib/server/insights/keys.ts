/**
 * Random keys of Insights' keyed hashes, shared by every instance through the database: the first
 * instance to need one inserts it, the others read it. `semana:<week>` keys are deleted once their
 * week is over (retention.ts), after which nobody can test a person against that week's sketch.
 */
import { hash, randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { insightsKeys } from "../../../../db/schema/index.ts";
import type { Db } from "../data/db.ts";

export const VOTE_KEY = "voto";
export const QUERY_KEY = "consulta";
export const weekKeyName = (week: string) => `semana:${week}`;

/** Keys by database: a process that opens two (a test, a copy between engines) never uses one's key on the other. */
const caches = new WeakMap<Db, Map<string, Buffer>>();

/** The key named `name`, created on first use (the same on every instance). */
export async function insightsKey(db: Db, name: string): Promise<Buffer> {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new Map()));
  const known = cache.get(name);
  if (known) return known;
  await db
    .insert(insightsKeys)
    .values({ name, secret: randomBytes(32).toString("hex") })
    .onConflictDoNothing();
  const [row] = await db.select({ secret: insightsKeys.secret }).from(insightsKeys).where(eq(insightsKeys.name, name));
  const key = Buffer.from(row!.secret, "hex");
  if (cache.size > 64) cache.clear();
  cache.set(name, key);
  return key;
}

/** Forgets `db`'s cached keys (a week key after its deletion; tests). */
export function forgetInsightsKey(db: Db, name?: string): void {
  if (name === undefined) caches.delete(db);
  else caches.get(db)?.delete(name);
}

/**
 * The keyed hash of `text`: SHA-256 over the secret key then the text. Used only to bucket or find
 * (never to authenticate), so the prefix construction is enough; node's HMAC cost ~60 µs a call
 * here (a key object per call), the one-shot hash ~5 µs.
 */
export function keyedHash(key: Buffer, text: string): Buffer {
  return hash("sha256", `${key.toString("hex")}\u0000${text}`, "buffer");
}
