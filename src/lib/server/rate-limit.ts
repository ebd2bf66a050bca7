/**
 * Fixed-window counters in memory, per key (e.g. `sign-in:ip:1.2.3.4`). Windows are in
 * milliseconds. Checked before any password hashing so the CPU cannot be exhausted.
 */
export interface Limit {
  /** Attempts allowed per window. */
  max: number;
  /** Window length in milliseconds. */
  windowMs: number;
}

const windows = new Map<string, { count: number; resetAt: number }>();

/** Scales limits for tests/operations: `RATE_LIMIT_MULTIPLIER` (attempts) and `RATE_LIMIT_WINDOW_MS` (window). */
function effective(limit: Limit): Limit {
  const multiplier = Number(process.env.RATE_LIMIT_MULTIPLIER ?? 1) || 1;
  const windowMs = Number(process.env.RATE_LIMIT_WINDOW_MS ?? 0) || limit.windowMs;
  return { max: Math.max(1, Math.round(limit.max * multiplier)), windowMs };
}

function hit(key: string, limit: Limit, now: number): number {
  let entry = windows.get(key);
  if (!entry || entry.resetAt <= now) {
    entry = { count: 0, resetAt: now + effective(limit).windowMs };
    windows.set(key, entry);
    if (windows.size > 50_000) pruneRateLimits(now);
  }
  entry.count += 1;
  return entry.count;
}

/** Counts one attempt; false when the key is over its limit for the current window. */
export function consumeRateLimit(key: string, limit: Limit, now = Date.now()): boolean {
  return hit(key, limit, now) <= effective(limit).max;
}

/** Counts one event (e.g. a failed password) without deciding anything. */
export function recordRateLimitHit(key: string, limit: Limit, now = Date.now()): void {
  hit(key, limit, now);
}

/** Events counted under the key in its current window. */
export function rateLimitCount(key: string, now = Date.now()): number {
  const entry = windows.get(key);
  return entry && entry.resetAt > now ? entry.count : 0;
}

/** When the key's current window ends, or null when it has none. */
export function rateLimitWindowEnd(key: string, now = Date.now()): number | null {
  const entry = windows.get(key);
  return entry && entry.resetAt > now ? entry.resetAt : null;
}

/** True when the key has already used up its limit, without counting anything. */
export function isRateLimited(key: string, limit: Limit, now = Date.now()): boolean {
  return rateLimitCount(key, now) >= effective(limit).max;
}

/** Takes back one counted event (an attempt counted in advance that turned out fine). */
export function undoRateLimitHit(key: string): void {
  const entry = windows.get(key);
  if (entry && entry.count > 0) entry.count -= 1;
}

export function clearRateLimit(key: string): void {
  windows.delete(key);
}

export function pruneRateLimits(now = Date.now()): void {
  for (const [key, entry] of windows) if (entry.resetAt <= now) windows.delete(key);
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
