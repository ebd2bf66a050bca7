/**
 * Fixed-window counters kept in this instance's memory only, for the anonymous signals ('Esta página
 * ajudou?', search beacons): a `rate_limits` row naming the account or its address at the minute of a
 * vote would let whoever holds the database link the vote's page and day to the person (issue 62).
 * The price: with N instances a person may send N times the allowance (round-robin spreads them).
 */
import { effective, type Limit } from "./rate-limit.ts";

const MINUTE = 60_000;
/** The same allowances the database rules gave this flow (flows.ts, before issue 62). */
export const FEEDBACK_PER_ACCOUNT: Limit = { max: 60, windowMs: 15 * MINUTE };
export const FEEDBACK_PER_NETWORK: Limit = { max: 600, windowMs: 15 * MINUTE };
/** Keys held at most per counter set: past it the windows start over (the memory stays bounded under a flood of addresses). */
const MAX_KEYS = 100_000;

export class MemoryLimiter {
  private readonly windows = new Map<string, { resetAt: number; count: number }>();

  constructor(private readonly limit: Limit) {}

  /** Counts one attempt of `key`; false when the window's allowance is used up (the attempt is then not counted). */
  take(key: string, now = Date.now()): boolean {
    const { max, windowMs } = effective(this.limit);
    const window = this.windows.get(key);
    if (!window || window.resetAt <= now) {
      if (this.windows.size >= MAX_KEYS) this.windows.clear();
      this.windows.set(key, { resetAt: now + windowMs, count: 1 });
      return true;
    }
    if (window.count >= max) return false;
    window.count += 1;
    return true;
  }

  clear(): void {
    this.windows.clear();
  }
}

const perAccount = new MemoryLimiter(FEEDBACK_PER_ACCOUNT);
const perNetwork = new MemoryLimiter(FEEDBACK_PER_NETWORK);

/** One feedback post of `userId` from `ipAddress`: false when either allowance is used up. */
export function allowFeedback(userId: string, ipAddress: string | null, now = Date.now()): boolean {
  if (ipAddress !== null && !perNetwork.take(ipAddress, now)) return false;
  return perAccount.take(userId, now);
}
