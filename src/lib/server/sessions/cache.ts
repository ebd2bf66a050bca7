import { changeCounter, sharedChangeCounter } from "../data/change-counter.ts";
import type { Db } from "../data/db.ts";
import { checkSession, isExpired, lookupSession, parseToken, type SessionEntry, type ValidatedSession } from "./session.ts";

/** Sessions the gate keeps in memory at most (a few KB each): beyond it the cache starts over, so memory stays flat at any number of users. */
export const SESSION_CACHE_MAX = 10_000;

/**
 * How long a request whose answer nobody waits for (the search beacon) waits to share the change
 * counter's read with others like it, on PostgreSQL (change-counter.ts sharedChangeCounter).
 */
export const SHARED_READ_DELAY_MS = 20;

/** What the gate's validator answers: without a promise when the cache held the session and nothing had to be written. */
export type Validation = ValidatedSession | null | Promise<ValidatedSession | null>;

/**
 * The gate's validator: same rules as validateSessionToken, but the looked-up session is kept
 * in memory until the change counter moves, so a role, permission or session change by the app,
 * the admin panel, the CLI or another instance is seen on the very next request while unchanged
 * data costs one tiny read (on SQLite, a read of the -shm file's header; see change-counter.ts).
 */
export function createSessionValidator(db: Db, sharedDelayMs = SHARED_READ_DELAY_MS) {
  const changes = changeCounter(db);
  const sharedChanges = sharedChangeCounter(db, sharedDelayMs);
  let seen: number | undefined;
  const cache = new Map<string, SessionEntry>();

  function afterCheck(entry: SessionEntry, id: string, secret: string, now: number, result: ValidatedSession | null) {
    if (result) entry.verifiedSecret ??= Buffer.from(secret);
    else if (isExpired(entry.row, now)) cache.delete(id);
    return result;
  }

  async function lookupAndCheck(version: number, id: string, secret: string, now: number): Promise<ValidatedSession | null> {
    const entry = await lookupSession(db, id);
    if (!entry) return null;
    // Kept only if nothing moved while it was read: a read from before a revocation is this request's answer, not the cache's.
    if (seen !== version) return checkSession(db, entry, id, secret, now);
    if (cache.size >= SESSION_CACHE_MAX) cache.clear();
    cache.set(id, entry);
    return afterCheck(entry, id, secret, now, await checkSession(db, entry, id, secret, now));
  }

  function withVersion(version: number, id: string, secret: string, now: number): Validation {
    if (version !== seen) {
      cache.clear();
      seen = version;
    }
    const entry = cache.get(id);
    if (!entry) return lookupAndCheck(version, id, secret, now);
    const result = checkSession(db, entry, id, secret, now);
    return result instanceof Promise
      ? result.then((settled) => afterCheck(entry, id, secret, now, settled))
      : afterCheck(entry, id, secret, now, result);
  }

  /** `unhurried`: nobody waits for this request's answer, so it may share the counter's read (SHARED_READ_DELAY_MS). */
  return function validate(token: string, now = Date.now(), unhurried = false): Validation {
    const parsed = parseToken(token);
    if (!parsed) return null;
    // Synchronous on SQLite: nothing to wait for when the session is cached and nothing changed.
    const version = unhurried ? sharedChanges() : changes();
    return typeof version === "number"
      ? withVersion(version, parsed[0], parsed[1], now)
      : version.then((settled) => withVersion(settled, parsed[0], parsed[1], now));
  };
}
