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
export function signInBlockedIpKey(ip: string): string | null {
  const { ip: key } = keys("", ip);
  return isRateLimited(key, RATE_LIMITS.signInIpFailures) ? key : null;
}

/** The key that refuses this client's password for this account, or null. */
export function signInBlockedKey(email: string, ip: string): string | null {
  const key = keys(email, ip);
  if (isRateLimited(key.pair, RATE_LIMITS.signInPairFailures)) return key.pair;
  if (rateLimitCount(key.pair) > 0 && isRateLimited(key.email, RATE_LIMITS.signInEmailFailures)) return key.email;
  return signInBlockedIpKey(ip);
}

/** Counts a password attempt as failed before Argon2 runs, so parallel guesses cannot slip past the limits. */
export function beginPasswordAttempt(email: string, ip: string): void {
  const key = keys(email, ip);
  recordRateLimitHit(key.ip, RATE_LIMITS.signInIpFailures);
  recordRateLimitHit(key.pair, RATE_LIMITS.signInPairFailures);
  recordRateLimitHit(key.email, RATE_LIMITS.signInEmailFailures);
}

/** The right password: the attempt was no failure, and this client's failures for the account are forgiven. */
export function passwordAttemptSucceeded(email: string, ip: string): void {
  const key = keys(email, ip);
  undoRateLimitHit(key.ip);
  undoRateLimitHit(key.email);
  clearRateLimit(key.pair);
}
