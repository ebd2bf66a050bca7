/**
 * Keys of Insights' keyed hashes. Each is derived from INSIGHTS_KEY, a secret in the environment
 * (like AUDIT_CHAIN_KEY), and a random salt per key name kept in the database (`insights_keys`,
 * inserted by the first instance that needs it, read by the others): HMAC-SHA256(INSIGHTS_KEY, name,
 * salt). The database or a backup alone cannot recompute any pseudonym; INSIGHTS_KEY alone cannot
 * either once the salt is gone. Salts are rotated by their names: `semana:<week>` (readers' sketches)
 * is deleted once its week is over, `voto:<quarter>` and `consulta:<quarter>` (votes, searchers) once
 * their quarter is (retention.ts), after which nobody, with or without INSIGHTS_KEY, can link rows of
 * that period to a person. `consulta-texto` (the hash standing for a query's text until K_ANONYMITY
 * people searched it) names nobody and is not rotated.
 */
import { createHmac, hash, randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { insightsKeys } from "../../../../db/schema/index.ts";
import { config } from "../config/config.ts";
import type { Db } from "../data/db.ts";

export const QUERY_TEXT_KEY = "consulta-texto";
export const weekKeyName = (week: string) => `semana:${week}`;
/** The calendar quarter of a day (`2026-12-06` → `2026-T4`): votes and searchers are hashed under that quarter's key. */
export const quarterOf = (day: string) => `${day.slice(0, 4)}-T${Math.ceil(Number(day.slice(5, 7)) / 3)}`;
export const voteKeyName = (day: string) => `voto:${quarterOf(day)}`;
export const searcherKeyName = (day: string) => `consulta:${quarterOf(day)}`;

let masterKey: Buffer | null = null;

/** INSIGHTS_KEY, or (unset: development, tests) a random key of this process, with a warning once. */
function master(): Buffer {
  if (masterKey) return masterKey;
  const configured = config().insightsKey;
  if (configured) return (masterKey = configured);
  console.warn(
    "[insights] INSIGHTS_KEY não definida: os pseudônimos das métricas usam uma chave aleatória deste processo " +
      "(votos não podem ser mudados depois de reiniciar, e várias instâncias contam a mesma pessoa mais de uma vez). " +
      "Defina INSIGHTS_KEY em produção: openssl rand -hex 32",
  );
  return (masterKey = randomBytes(32));
}

/** Replaces the secret keys are derived from (tests; null reads INSIGHTS_KEY again) and forgets every derived key. */
export function setInsightsMasterKey(key: Buffer | null): void {
  masterKey = key;
  wordsByKey = [];
  for (const db of knownDbs) caches.delete(db);
}

/** Keys by database: a process that opens two (a test, a copy between engines) never uses one's key on the other. */
const caches = new WeakMap<Db, Map<string, Buffer>>();
const knownDbs = new Set<Db>();

/** The key named `name`: HMAC of INSIGHTS_KEY over the name and its salt, the salt created on first use (the same on every instance). */
export async function insightsKey(db: Db, name: string): Promise<Buffer> {
  let cache = caches.get(db);
  if (!cache) {
    caches.set(db, (cache = new Map()));
    if (knownDbs.size > 16) knownDbs.clear();
    knownDbs.add(db);
  }
  const known = cache.get(name);
  if (known) return known;
  await db
    .insert(insightsKeys)
    // Its creation day only: the second would say when the quarter's first vote or search was made, and by whom
    // to anyone who matched it against the sessions' or the audit's times.
    .values({ name, secret: randomBytes(32).toString("hex"), createdAt: Math.floor(Date.now() / 86_400_000) * 86_400_000 })
    .onConflictDoNothing();
  const [row] = await db.select({ secret: insightsKeys.secret }).from(insightsKeys).where(eq(insightsKeys.name, name));
  const key = createHmac("sha256", master()).update(`${name}\u0000`).update(Buffer.from(row!.secret, "hex")).digest();
  if (cache.size > 64) cache.clear();
  cache.set(name, key);
  return key;
}

/** Forgets `db`'s cached keys (a week key after its deletion; tests), and the hashes kept under them. */
export function forgetInsightsKey(db: Db, name?: string): void {
  const cache = caches.get(db);
  const forgotten = name === undefined ? [...(cache?.values() ?? [])] : [cache?.get(name)];
  for (const key of forgotten) if (key) wordsByKey = wordsByKey.filter((slot) => !slot.key.equals(key));
  if (name === undefined) caches.delete(db);
  else cache?.delete(name);
}

/**
 * The keyed hash of `text`: SHA-256 over the secret key then the text. Used only to bucket or find
 * (never to authenticate), so the prefix construction is enough; node's HMAC cost ~60 µs a call
 * here (a key object per call), the one-shot hash ~5 µs.
 */
export function keyedHash(key: Buffer, text: string): Buffer {
  return hash("sha256", keyedInput(key.toString("hex"), text), "buffer");
}

/** What keyedHash hashes: the key in hex, NUL, the text (one place, so every keyed hash of a text is the same). */
function keyedInput(hexKey: string, text: string): string {
  return `${hexKey}\u0000${text}`;
}

/** Texts whose hash words are kept per key and prefix (a person or a page each): ~100 bytes an entry, ~10 MB at the bound. */
const MAX_KEPT_WORDS = 100_000;
type Words = readonly [high: number, low: number];
/** The last two keys' kept words by prefix and text: this week's and, around Monday 00:00, the week before's. */
let wordsByKey: { key: Buffer; hex: string; byPrefix: Map<string, Map<string, Words>> }[] = [];

/**
 * The first 64 bits of `keyedHash(key, prefix + text)` as two unsigned 32-bit words, kept for the last
 * two keys (until the key is forgotten): the readers' sketch hashes each person and each page once a
 * week instead of once per read (a hash costs ~0.4–2 µs here, more than the rest of counting a read).
 */
export function keyedWords(key: Buffer, prefix: string, text: string): Words {
  let slot = wordsByKey[0];
  if (slot?.key !== key && !slot?.key.equals(key)) {
    slot = wordsByKey.find((candidate) => candidate.key.equals(key)) ?? { key, hex: key.toString("hex"), byPrefix: new Map() };
    wordsByKey = [slot, ...wordsByKey.filter((other) => other !== slot)].slice(0, 2);
  }
  let kept = slot.byPrefix.get(prefix);
  if (!kept) slot.byPrefix.set(prefix, (kept = new Map()));
  let words = kept.get(text);
  if (!words) {
    // keyedHash's digest as hex: a string costs ~0.4 µs here, a Buffer ~1.5 µs (a backing store of its own per call).
    const digest = hash("sha256", keyedInput(slot.hex, prefix + text), "hex");
    words = [Number.parseInt(digest.slice(0, 8), 16), Number.parseInt(digest.slice(8, 16), 16)];
    if (kept.size >= MAX_KEPT_WORDS) kept.clear();
    kept.set(text, words);
  }
  return words;
}
