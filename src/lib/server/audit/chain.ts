import { desc, lt } from "drizzle-orm";
import { auditChainCheckpoints, auditLogs } from "../../../../db/schema/index.ts";
import type { Db } from "../data/db.ts";
import { sha256Hex } from "../platform/hashing.ts";

/** The `prev` of the first row ever chained (and of rows from before the chain). */
export const GENESIS_HASH = "";

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
 * Rows whose `details.count` changes after the insert: a `blocked` row records a rate-limited
 * attempt, and repeats in the same window add to its count (incrementAuditCount). Their count is
 * left out of the row hash and sealed by the head's sum instead (head.ts); every other row's
 * count is part of its hash.
 */
export function isCountedRow(row: { result: string }): boolean {
  return row.result === "blocked";
}

/** The details as JSON without their count (the raw text when it is not JSON). */
function parsedDetails(row: ChainedContent): unknown {
  if (row.actionDetails === null) return null;
  try {
    const parsed = JSON.parse(row.actionDetails) as Record<string, unknown>;
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) delete parsed.count;
    return parsed;
  } catch {
    return row.actionDetails;
  }
}

/** `value` with every object's keys in order. */
function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (value === null || typeof value !== "object") return value;
  const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(entries.map(([key, item]) => [key, sortedKeys(item)]));
}

/**
 * The sealed form of a row: every column in a fixed order. Version 2 (written since the head
 * exists) takes the details text as stored, except on counted rows: their details without the
 * count, keys in order (PostgreSQL's jsonb rewrites a bumped count's details in its own key
 * order). Version 1 (older rows) parsed the details of every row and left the count out.
 */
export function canonicalAuditContent(row: ChainedContent, version: 1 | 2 = 2): string {
  const columns = [row.id, row.createdAt, row.userId, row.actionType, row.result];
  const rest = [row.ipAddress, row.userAgent];
  if (version === 1) return JSON.stringify([...columns, parsedDetails(row), ...rest]);
  const details = isCountedRow(row) ? sortedKeys(parsedDetails(row)) : row.actionDetails;
  return JSON.stringify([2, ...columns, details, ...rest]);
}

export function chainHash(previousHash: string, row: ChainedContent, version: 1 | 2 = 2): string {
  return sha256Hex(previousHash + "\n" + canonicalAuditContent(row, version));
}

/**
 * Whether a stored row hash chains from `previousHash`: as written today, or as a row written
 * before version 2 (whose hash cannot match the version-2 form, so neither form passes for the other).
 */
export function chainsFrom(previousHash: string, row: ChainedContent & { hash: string }): boolean {
  return chainHash(previousHash, row) === row.hash || chainHash(previousHash, row, 1) === row.hash;
}

type Reader = Pick<Db, "select">;

/** A point of the chain: a row's id and the hash the next row chains onto. */
export interface ChainPoint {
  id: number | null;
  hash: string;
}

/** The point before row `id`: the previous row, else the last pruning checkpoint, else genesis (id null). */
export async function chainPointBefore(db: Reader, id: number): Promise<ChainPoint> {
  const previous = (
    await db
      .select({ id: auditLogs.id, hash: auditLogs.hash })
      .from(auditLogs)
      .where(lt(auditLogs.id, id))
      .orderBy(desc(auditLogs.id))
      .limit(1)
  )[0];
  if (previous) return { id: previous.id, hash: previous.hash ?? GENESIS_HASH };
  return prunedPoint(await latestCheckpoint(db));
}

/** Where the chain resumes after pruning: the checkpoint's row, or genesis when nothing was pruned. */
export function prunedPoint(checkpoint: { lastPrunedId: number; lastPrunedHash: string } | undefined): ChainPoint {
  return checkpoint ? { id: checkpoint.lastPrunedId, hash: checkpoint.lastPrunedHash } : { id: null, hash: GENESIS_HASH };
}

export async function latestCheckpoint(db: Reader) {
  // The furthest point pruned, whichever checkpoint was written last.
  return (await db.select().from(auditChainCheckpoints).orderBy(desc(auditChainCheckpoints.lastPrunedId)).limit(1))[0];
}

/**
 * Before pruning rows up to `lastPruned`: remember where the rest of the chain resumes (its hash,
 * or genesis for a row from before the chain) so the rows left still verify.
 */
export async function writeChainCheckpoint(db: Pick<Db, "insert">, lastPruned: { id: number; hash: string | null }): Promise<void> {
  await db
    .insert(auditChainCheckpoints)
    .values({ lastPrunedId: lastPruned.id, lastPrunedHash: lastPruned.hash ?? GENESIS_HASH, createdAt: Date.now() });
}
