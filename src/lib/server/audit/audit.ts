/**
 * The audit domain: the hash-chained log (writing a row here, the chain in chain.ts, its sealed head
 * in head.ts, verification in verify.ts), the viewer's filters and keyset pages (query.ts), the
 * CSV export streamed by a worker thread through a ring of reused chunks (reader.ts, export-csv.ts,
 * chunk-ring.ts) and retention (retention.ts). It knows nothing of sign-in or roles.
 */
import { and, eq, isNotNull } from "drizzle-orm";
import { auditLogs } from "../../../../db/schema/index.ts";
import type { AuditActionType, AuditResult } from "../../audit/actions.ts";
import type { Db, Tx } from "../data/db.ts";
import { chainHash, latestCheckpoint, prunedPoint } from "./chain.ts";
import { chainKey, moveHeadAfterAppends, moveHeadAfterCount, movableHead, readChainTip } from "./head.ts";
import { ROWS_WITHOUT_KEY_ACTION, takeInRowsWithoutKey } from "./without-key.ts";
import { config } from "../config/config.ts";
import { maskIpAddress } from "../platform/ip-mask.ts";
import { holdLock, incrementJsonCount, reserveAuditIds } from "../data/dialect.ts";

/** Rows per insert statement of an append (8 columns each). */
const ROWS_PER_INSERT = 1000;

/** Who sent a request, as audit rows record it. */
export interface RequestMeta {
  ipAddress?: string | null;
  userAgent?: string | null;
}

export interface AuditEntry extends RequestMeta {
  userId?: string | null;
  actionType: AuditActionType;
  result: AuditResult;
  details?: Record<string, unknown> | null;
}

/**
 * Writes one audit row, chained to the previous one (see chain.ts), and moves the chain's head
 * (head.ts). Pass the transaction handle to write it together with the change it records. The
 * previous hash is read inside the write transaction, under the chain lock (SQLite: immediate,
 * so other connections wait; PostgreSQL: an advisory lock): appends are serialised. A row that
 * cannot be written throws, so the change it records rolls back with it (or, written after the
 * change, the request fails): nothing is acknowledged with its row missing.
 */
export async function writeAuditLog(db: Db | Tx, entry: AuditEntry): Promise<number> {
  return (await writeAuditLogs(db, [entry]))[0]!;
}

/**
 * Several rows, chained in the order given, in one (nested) transaction and one take of the chain
 * lock. Under the lock: one read of the head with the newest row, the ids reserved, every row
 * inserted whole (its hash covers its id) in one statement, one write of the head — a handful of
 * round trips whatever the number of rows, where a row at a time took five each.
 */
export async function writeAuditLogs(db: Db | Tx, entries: readonly AuditEntry[]): Promise<number[]> {
  return db.transaction(async (tx) => {
    await holdLock(tx, "audit-chain");
    const key = chainKey();
    const tip = await readChainTip(tx);
    let head = movableHead(tip.head, key);
    const taken = head ? await takeInRowsWithoutKey(tx, key, head, tip.newest) : null;
    if (taken) head = taken.head;
    const named: AuditEntry[] = taken ? [{ actionType: ROWS_WITHOUT_KEY_ACTION, result: "failure", details: { ...taken.details } }] : [];
    const all = [...named, ...entries];
    if (all.length === 0) return [];
    const ids = await reserveAuditIds(tx, all.length);
    const first = tip.newest ?? prunedPoint(await latestCheckpoint(tx));
    let previousHash = first.hash;
    const rows = all.map((entry, i) => {
      const content = { id: ids[i]!, ...rowValues(entry) };
      previousHash = chainHash(previousHash, content);
      return { ...content, hash: previousHash };
    });
    // In slices: a single statement of 20,000 rows would pass PostgreSQL's 65,535 parameters.
    for (let start = 0; start < rows.length; start += ROWS_PER_INSERT)
      await tx.insert(auditLogs).values(rows.slice(start, start + ROWS_PER_INSERT));
    await moveHeadAfterAppends(tx, key, head, first, rows);
    return ids.slice(named.length);
  });
}

/** The columns of a row as written (its id and hash come from the append). */
function rowValues(entry: AuditEntry) {
  return {
    createdAt: Date.now(),
    userId: entry.userId ?? null,
    actionType: entry.actionType,
    result: entry.result,
    actionDetails: entry.details ? JSON.stringify(entry.details) : null,
    ipAddress: config().auditIpMask ? maskIpAddress(entry.ipAddress) : (entry.ipAddress ?? null),
    userAgent: entry.userAgent?.slice(0, 512) ?? null,
  };
}

/**
 * Adds one to the `count` in a `blocked` row's details (a repeat of the attempt it records) and
 * reseals the count in the chain's head, under the chain lock. False when the row is gone or is
 * not a chained `blocked` row (any other row's count is part of its hash): the caller then writes a new row.
 */
export async function incrementAuditCount(db: Pick<Db, "transaction">, rowId: number): Promise<boolean> {
  return db.transaction(async (tx) => {
    await holdLock(tx, "audit-chain");
    const counted = and(eq(auditLogs.id, rowId), eq(auditLogs.result, "blocked"), isNotNull(auditLogs.hash));
    const [before] = await tx.select({ actionDetails: auditLogs.actionDetails }).from(auditLogs).where(counted);
    if (!before) return false;
    const [after] = (await tx
      .update(auditLogs)
      .set({ actionDetails: incrementJsonCount(auditLogs.actionDetails) })
      .where(counted)
      .returning({ actionDetails: auditLogs.actionDetails })) as [{ actionDetails: string | null }];
    await moveHeadAfterCount(tx, rowId, before.actionDetails, after.actionDetails);
    return true;
  });
}
