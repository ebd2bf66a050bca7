import type { Db } from "./db.ts";
import { checkSession, isExpired, lookupSession, parseToken, type SessionEntry, type ValidatedSession } from "./session.ts";

/**
 * The gate's validator: same rules as validateSessionToken, but the looked-up session is kept
 * in memory until any other connection commits to the database (SQLite's `data_version`
 * changes), so a role, permission or session change by the app, the admin panel or the CLI
 * is seen on the very next request while unchanged data costs one tiny prepared statement.
 */
export function createSessionValidator(db: Db) {
  const dataVersion = db.$client.prepare("PRAGMA data_version").pluck();
  let seen = dataVersion.get();
  const cache = new Map<string, SessionEntry>();
  return function validate(token: string, now = Date.now()): ValidatedSession | null {
    const version = dataVersion.get();
    if (version !== seen) {
      cache.clear();
      seen = version;
    }
    const parsed = parseToken(token);
    if (!parsed) return null;
    const [id, secret] = parsed;
    let entry = cache.get(id);
    if (!entry) {
      entry = lookupSession(db, id);
      if (!entry) return null;
      if (cache.size >= 10_000) cache.clear();
      cache.set(id, entry);
    }
    const result = checkSession(db, entry, id, secret, now);
    if (result) entry.verifiedSecret ??= Buffer.from(secret);
    else if (isExpired(entry.row, now)) cache.delete(id);
    return result;
  };
}
