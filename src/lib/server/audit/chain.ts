import { asc, desc, eq, gt, lt } from "drizzle-orm";
import { auditChainCheckpoints, auditLogs } from "../../../../db/schema/index.ts";
import type { Db } from "../data/db.ts";
import { sha256 } from "../platform/hashing.ts";

/** The `prev` of the first row ever chained. */
export const GENESIS_HASH = "";
const VERIFY_CHUNK = 2000;

export interface ChainedContent {
  id: number;
  createdAt: number;
  userId: string | null;
  actionType: string;
  result: string;
  actionDetails: string | null;
  ipAddress: string | null;
  userAgent: string | null;
}

/**
 * The sealed form of a row: every column in a fixed order. `details.count` is left out: it is the
 * one field that changes after the insert (repeats of a rate-limited attempt add to it).
 */
export function canonicalAuditContent(row: ChainedContent): string {
  let details: unknown = null;
  if (row.actionDetails !== null) {
    try {
      const parsed = JSON.parse(row.actionDetails) as Record<string, unknown>;
      if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) delete parsed.count;
      details = parsed;
    } catch {
      details = row.actionDetails;
    }
  }
  return JSON.stringify([row.id, row.createdAt, row.userId, row.actionType, row.result, details, row.ipAddress, row.userAgent]);
}

export function chainHash(previousHash: string, row: ChainedContent): string {
  return Buffer.from(sha256(previousHash + "\n" + canonicalAuditContent(row))).toString("hex");
}

type Reader = Pick<Db, "select">;

/** The hash the next row chains onto: the last row's, else the last pruning checkpoint's, else genesis. */
export async function previousHashBefore(db: Reader, id: number): Promise<string> {
  const previous = (
    await db.select({ hash: auditLogs.hash }).from(auditLogs).where(lt(auditLogs.id, id)).orderBy(desc(auditLogs.id)).limit(1)
  )[0];
  if (previous) return previous.hash ?? GENESIS_HASH;
  return (await latestCheckpoint(db))?.lastPrunedHash ?? GENESIS_HASH;
}

export async function latestCheckpoint(db: Reader) {
  // The furthest point pruned, whichever checkpoint was written last.
  return (await db.select().from(auditChainCheckpoints).orderBy(desc(auditChainCheckpoints.lastPrunedId)).limit(1))[0];
}

export type ChainState =
  { ok: true; count: number; unchained: number } | { ok: false; count: number; brokenId: number; reason: "hash" | "missing_hash" };

/** Walks the log in id order, recomputing each hash; stops at the first row that does not match. */
export async function verifyAuditChain(
  db: Reader,
  pause: () => Promise<void> = () => new Promise((resolve) => setImmediate(resolve)),
): Promise<ChainState> {
  let previous = (await latestCheckpoint(db))?.lastPrunedHash ?? GENESIS_HASH;
  let lastId = 0;
  let count = 0;
  let unchained = 0;
  let chainStarted = previous !== GENESIS_HASH;
  for (;;) {
    const rows = await db.select().from(auditLogs).where(gt(auditLogs.id, lastId)).orderBy(asc(auditLogs.id)).limit(VERIFY_CHUNK);
    for (const row of rows) {
      lastId = row.id;
      if (row.hash === null) {
        // Rows written before the chain existed come first; one missing later means a row was forged or altered.
        if (chainStarted) return { ok: false, count, brokenId: row.id, reason: "missing_hash" };
        unchained += 1;
        continue;
      }
      chainStarted = true;
      if (chainHash(previous, row) !== row.hash) return { ok: false, count, brokenId: row.id, reason: "hash" };
      previous = row.hash;
      count += 1;
    }
    if (rows.length < VERIFY_CHUNK) return { ok: true, count, unchained };
    await pause();
  }
}

/** Before pruning rows up to `lastPrunedId`: remember its hash so the rows left still verify. */
export async function writeChainCheckpoint(db: Pick<Db, "select" | "insert">, lastPrunedId: number): Promise<void> {
  const row = (await db.select({ hash: auditLogs.hash }).from(auditLogs).where(eq(auditLogs.id, lastPrunedId)))[0];
  if (!row?.hash) return;
  await db.insert(auditChainCheckpoints).values({ lastPrunedId, lastPrunedHash: row.hash, createdAt: Date.now() });
}
