import { incrementAuditCount, writeAuditLog, type AuditEntry } from "../audit/audit.ts";
import type { Db } from "../data/db.ts";
import { rateLimitWindowEnd } from "./rate-limit.ts";

/** The row that records each limit key (per instance: with several, each writes at most one row per key and window)'s blocked attempts in its current window. */
const rowsByKey = new Map<string, { rowId: number; windowEnd: number }>();

/** The write under way per key: refusals of one key are recorded one after another, so a burst shares one row. */
const writing = new Map<string, Promise<void>>();

/**
 * Records a rate-limited attempt: the first one of a key's window inserts a `blocked` row with
 * `count: 1`, later ones add to its count, so a flood of requests cannot flood the audit log.
 */
export async function auditBlockedAttempt(db: Db, limitKey: string, entry: Omit<AuditEntry, "result">, now = Date.now()): Promise<void> {
  const previous = writing.get(limitKey) ?? Promise.resolve();
  const current = previous.then(() => recordBlockedAttempt(db, limitKey, entry, now));
  const settled = current.catch(() => undefined);
  writing.set(limitKey, settled);
  void settled.then(() => {
    if (writing.get(limitKey) === settled) writing.delete(limitKey);
  });
  await current;
}

async function recordBlockedAttempt(db: Db, limitKey: string, entry: Omit<AuditEntry, "result">, now: number): Promise<void> {
  const windowEnd = (await rateLimitWindowEnd(db, limitKey, now)) ?? now;
  const known = rowsByKey.get(limitKey);
  if (known && known.windowEnd === windowEnd && (await incrementAuditCount(db, known.rowId))) return;
  const rowId = await writeAuditLog(db, { ...entry, result: "blocked", details: { ...entry.details, count: 1 } });
  if (rowsByKey.size > 10_000) for (const [key, row] of rowsByKey) if (row.windowEnd <= now) rowsByKey.delete(key);
  rowsByKey.set(limitKey, { rowId, windowEnd });
}
