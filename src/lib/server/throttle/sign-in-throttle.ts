import type { Db } from "../data/db.ts";
import { clearRateLimit, isRateLimited, RATE_LIMITS, rateLimitCount, recordRateLimitHit, undoRateLimitHit } from "./rate-limit.ts";

/**
 * Who may try a password now. Failures are counted per IP, per (e-mail, IP) and per e-mail; a
 * success clears its (e-mail, IP) pair. The per-e-mail count never refuses a client that has not
 * failed for that account, so nobody can lock an owner out from another network.
 */
const keys = (email: string, ip: string) => ({
  ip: `sign-in:failures:ip:${ip}`,
  pair: `sign-in:failures:pair:${ip}:${email}`,
  email: `sign-in:failures:email:${email}`,
});

/** The key that refuses this IP's sign-ins before its body is read, or null. */
export async function signInBlockedIpKey(db: Db, ip: string): Promise<string | null> {
  const { ip: key } = keys("", ip);
  return (await isRateLimited(db, key, RATE_LIMITS.signInIpFailures)) ? key : null;
}

/** The key that refuses this client's password for this account, or null. */
export async function signInBlockedKey(db: Db, email: string, ip: string): Promise<string | null> {
  const key = keys(email, ip);
  if (await isRateLimited(db, key.pair, RATE_LIMITS.signInPairFailures)) return key.pair;
  if ((await rateLimitCount(db, key.pair)) > 0 && (await isRateLimited(db, key.email, RATE_LIMITS.signInEmailFailures))) return key.email;
  return await signInBlockedIpKey(db, ip);
}

/** Counts a password attempt as failed before Argon2 runs, so parallel guesses cannot slip past the limits. */
export async function beginPasswordAttempt(db: Db, email: string, ip: string): Promise<void> {
  const key = keys(email, ip);
  await recordRateLimitHit(db, key.ip, RATE_LIMITS.signInIpFailures);
  await recordRateLimitHit(db, key.pair, RATE_LIMITS.signInPairFailures);
  await recordRateLimitHit(db, key.email, RATE_LIMITS.signInEmailFailures);
}

/** The right password: the attempt was no failure, and this client's failures for the account are forgiven. */
export async function passwordAttemptSucceeded(db: Db, email: string, ip: string): Promise<void> {
  const key = keys(email, ip);
  await undoRateLimitHit(db, key.ip);
  await undoRateLimitHit(db, key.email);
  await clearRateLimit(db, key.pair);
}
