import { changeCounter } from "../data/change-counter.ts";
import type { Db } from "../data/db.ts";
import { checkSession, isExpired, lookupSession, parseToken, type SessionEntry, type ValidatedSession } from "./session.ts";

/** Sessions the gate keeps in memory at most (a few KB each): beyond it the cache starts over, so memory stays flat at any number of users. */
export const SESSION_CACHE_MAX = 10_000;

/**
 * The gate's validator: same rules as validateSessionToken, but the looked-up session is kept
 * in memory until the change counter moves, so a role, permission or session change by the app,
 * the admin panel, the CLI or another instance is seen on the very next request while unchanged
 * data costs one tiny read.
 */
export function createSessionValidator(db: Db) {
  const changes = changeCounter(db);
  let seen: number | undefined;
  const cache = new Map<string, SessionEntry>();
  return async function validate(token: string, now = Date.now()): Promise<ValidatedSession | null> {
    const parsed = parseToken(token);
    if (!parsed) return null;
    // Synchronous on SQLite: no promise to wait for when nothing changed.
    let version = changes();
    if (typeof version !== "number") version = await version;
    if (version !== seen) {
      cache.clear();
      seen = version;
    }
    const [id, secret] = parsed;
    let entry = cache.get(id);
    if (!entry) {
      entry = await lookupSession(db, id);
      if (!entry) return null;
      if (cache.size >= SESSION_CACHE_MAX) cache.clear();
      cache.set(id, entry);
    }
    const result = await checkSession(db, entry, id, secret, now);
    if (result) entry.verifiedSecret ??= Buffer.from(secret);
    else if (isExpired(entry.row, now)) cache.delete(id);
    return result;
  };
}
