/**
 * Fixed-window counters per key (e.g. `sign-in:ip:1.2.3.4`), kept in the database so every
 * instance on it counts together and a restart forgets nothing. Windows are in milliseconds.
 * Checked before any password hashing so the CPU cannot be exhausted.
 */
import { and, eq, gt, lte, sql } from "drizzle-orm";
import { rateLimits } from "../../../../db/schema/index.ts";
import type { Db } from "../data/db.ts";
import { readSetting } from "../../settings.ts";

export interface Limit {
  /** Attempts allowed per window. */
  max: number;
  /** Window length in milliseconds. */
  windowMs: number;
}

/** Scales limits for tests/operations: `RATE_LIMIT_MULTIPLIER` (attempts) and `RATE_LIMIT_WINDOW_MS` (window). */
export function effective(limit: Limit): Limit {
  const multiplier = Number(readSetting("RATE_LIMIT_MULTIPLIER") ?? 1) || 1;
  const windowMs = Number(readSetting("RATE_LIMIT_WINDOW_MS") ?? 0) || limit.windowMs;
  return { max: Math.max(1, Math.round(limit.max * multiplier)), windowMs };
}

/** One atomic upsert: a new or expired window starts at 1, a current one adds 1. */
async function hit(db: Db, key: string, limit: Limit, now: number): Promise<number> {
  const resetAt = now + effective(limit).windowMs;
  const expired = lte(rateLimits.resetAt, now);
  const [row] = await db
    .insert(rateLimits)
    .values({ key, count: 1, resetAt })
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: {
        count: sql`case when ${expired} then 1 else ${rateLimits.count} + 1 end`,
        resetAt: sql`case when ${expired} then ${resetAt} else ${rateLimits.resetAt} end`,
      },
    })
    .returning({ count: rateLimits.count });
  return row!.count;
}

/**
 * Counts one attempt under `key` and says whether it passed the limit: check and count are the
 * same upsert, so parallel attempts (one instance or several) each get their own count.
 */
export async function countAttempt(db: Db, key: string, limit: Limit, now = Date.now()): Promise<{ count: number; over: boolean }> {
  const count = await hit(db, key, limit, now);
  return { count, over: count > effective(limit).max };
}

async function currentWindow(db: Db, key: string, now: number) {
  const [row] = await db
    .select({ count: rateLimits.count, resetAt: rateLimits.resetAt })
    .from(rateLimits)
    .where(and(eq(rateLimits.key, key), gt(rateLimits.resetAt, now)));
  return row;
}

/** When the key's current window ends, or null when it has none. */
export async function rateLimitWindowEnd(db: Db, key: string, now = Date.now()): Promise<number | null> {
  return (await currentWindow(db, key, now))?.resetAt ?? null;
}

/** True when the key has already used up its limit, without counting anything (a fast refusal, never the guard itself). */
export async function isOverLimit(db: Db, key: string, limit: Limit, now = Date.now()): Promise<boolean> {
  return ((await currentWindow(db, key, now))?.count ?? 0) >= effective(limit).max;
}

/** Takes back one counted attempt (counted in advance as a failure, it turned out fine). */
export async function takeBackAttempt(db: Db, key: string): Promise<void> {
  await db
    .update(rateLimits)
    .set({ count: sql`${rateLimits.count} - 1` })
    .where(and(eq(rateLimits.key, key), gt(rateLimits.count, 0)));
}

export async function clearAttempts(db: Db, key: string): Promise<void> {
  await db.delete(rateLimits).where(eq(rateLimits.key, key));
}

/** Deletes windows that have ended (run with the hourly retention pass). */
/** In a transaction of its own: on SQLite a statement outside one while another is open is refused (db.ts). */
export async function pruneRateLimits(db: Db, now = Date.now()): Promise<number> {
  return db.transaction(
    async (tx) => (await tx.delete(rateLimits).where(lte(rateLimits.resetAt, now)).returning({ key: rateLimits.key })).length,
  );
}

export const RATE_LIMIT_MESSAGE = "Muitas tentativas. Aguarde alguns minutos e tente novamente.";
