/**
 * Fixed-window counters per key (e.g. `sign-in:ip:1.2.3.4`), kept in the database so every
 * instance on it counts together and a restart forgets nothing. Windows are in milliseconds.
 * Checked before any password hashing so the CPU cannot be exhausted.
 */
import { and, eq, gt, lte, sql } from "drizzle-orm";
import { rateLimits } from "../../../../db/schema/index.ts";
import type { Db } from "../data/db.ts";

export interface Limit {
  /** Attempts allowed per window. */
  max: number;
  /** Window length in milliseconds. */
  windowMs: number;
}

/** Scales limits for tests/operations: `RATE_LIMIT_MULTIPLIER` (attempts) and `RATE_LIMIT_WINDOW_MS` (window). */
function effective(limit: Limit): Limit {
  const multiplier = Number(process.env.RATE_LIMIT_MULTIPLIER ?? 1) || 1;
  const windowMs = Number(process.env.RATE_LIMIT_WINDOW_MS ?? 0) || limit.windowMs;
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

/** Counts one attempt; false when the key is over its limit for the current window. */
export async function consumeRateLimit(db: Db, key: string, limit: Limit, now = Date.now()): Promise<boolean> {
  return (await hit(db, key, limit, now)) <= effective(limit).max;
}

/** Counts one event (e.g. a failed password) without deciding anything. */
export async function recordRateLimitHit(db: Db, key: string, limit: Limit, now = Date.now()): Promise<void> {
  await hit(db, key, limit, now);
}

async function currentWindow(db: Db, key: string, now: number) {
  const [row] = await db
    .select({ count: rateLimits.count, resetAt: rateLimits.resetAt })
    .from(rateLimits)
    .where(and(eq(rateLimits.key, key), gt(rateLimits.resetAt, now)));
  return row;
}

/** Events counted under the key in its current window. */
export async function rateLimitCount(db: Db, key: string, now = Date.now()): Promise<number> {
  return (await currentWindow(db, key, now))?.count ?? 0;
}

/** When the key's current window ends, or null when it has none. */
export async function rateLimitWindowEnd(db: Db, key: string, now = Date.now()): Promise<number | null> {
  return (await currentWindow(db, key, now))?.resetAt ?? null;
}

/** True when the key has already used up its limit, without counting anything. */
export async function isRateLimited(db: Db, key: string, limit: Limit, now = Date.now()): Promise<boolean> {
  return (await rateLimitCount(db, key, now)) >= effective(limit).max;
}

/** Takes back one counted event (an attempt counted in advance that turned out fine). */
export async function undoRateLimitHit(db: Db, key: string): Promise<void> {
  await db
    .update(rateLimits)
    .set({ count: sql`${rateLimits.count} - 1` })
    .where(and(eq(rateLimits.key, key), gt(rateLimits.count, 0)));
}

export async function clearRateLimit(db: Db, key: string): Promise<void> {
  await db.delete(rateLimits).where(eq(rateLimits.key, key));
}

/** Deletes windows that have ended (run with the hourly retention pass). */
export async function pruneRateLimits(db: Db, now = Date.now()): Promise<number> {
  return (await db.delete(rateLimits).where(lte(rateLimits.resetAt, now)).returning({ key: rateLimits.key })).length;
}

export const RATE_LIMITS = {
  /** Sign-in attempts of any outcome per IP: bounds the Argon2 work one client can ask for. */
  signInIp: { max: 100, windowMs: 15 * 60_000 },
  /** Failed sign-ins per IP, over every account. */
  signInIpFailures: { max: 30, windowMs: 15 * 60_000 },
  /** Failed sign-ins per (e-mail, IP); a success clears it. */
  signInPairFailures: { max: 8, windowMs: 15 * 60_000 },
  /** Failed sign-ins per e-mail from any IP; past it, only clients that have not failed may try. */
  signInEmailFailures: { max: 20, windowMs: 15 * 60_000 },
  signUpIp: { max: 10, windowMs: 60 * 60_000 },
  mailIp: { max: 10, windowMs: 60 * 60_000 },
  mailEmail: { max: 4, windowMs: 60 * 60_000 },
  passwordUpdateIp: { max: 10, windowMs: 15 * 60_000 },
} satisfies Record<string, Limit>;

export const RATE_LIMIT_MESSAGE = "Muitas tentativas. Aguarde alguns minutos e tente novamente.";
