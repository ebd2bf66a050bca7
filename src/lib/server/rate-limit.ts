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

/** Counts one attempt; false when the key is over its limit for the current window. */
export function consumeRateLimit(key: string, limit: Limit, now = Date.now()): boolean {
  const { max, windowMs } = effective(limit);
  let entry = windows.get(key);
  if (!entry || entry.resetAt <= now) {
    entry = { count: 0, resetAt: now + windowMs };
    windows.set(key, entry);
    if (windows.size > 50_000) pruneRateLimits(now);
  }
  entry.count += 1;
  return entry.count <= max;
}

export function pruneRateLimits(now = Date.now()): void {
  for (const [key, entry] of windows) if (entry.resetAt <= now) windows.delete(key);
}

export const LIMITS = {
  signInIp: { max: 30, windowMs: 15 * 60_000 },
  signInEmail: { max: 8, windowMs: 15 * 60_000 },
  signUpIp: { max: 10, windowMs: 60 * 60_000 },
  mailIp: { max: 10, windowMs: 60 * 60_000 },
  mailEmail: { max: 4, windowMs: 60 * 60_000 },
  passwordUpdateIp: { max: 10, windowMs: 15 * 60_000 },
} satisfies Record<string, Limit>;

export const RATE_LIMIT_MESSAGE = "Muitas tentativas. Aguarde alguns minutos e tente novamente.";
