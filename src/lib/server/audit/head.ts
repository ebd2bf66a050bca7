/**
 * The chain's head (table audit_chain_head, one row): what the portal last wrote, so what the row
 * hashes alone cannot show is still seen by verify.ts:
 * - the last row (id + hash): deleting the newest rows, or adding rows outside the portal;
 * - where pruning resumed: deleting the oldest rows outside retention;
 * - a sum, mod 2^256, of one hash per counted row's `details.count` and per row from before the
 *   chain: those are the parts no row hash covers. A sum (not a running hash) so a count can be
 *   swapped in O(1) and verification can add the rows up in any single pass;
 * - with AUDIT_CHAIN_KEY, the per-row hashes of the sum are HMACs and the whole head carries an
 *   HMAC, so someone who can edit the database but lacks the key cannot forge any of it.
 *
 * Every writer (append, count bump, prune) moves the head under the chain lock, in its own
 * transaction, and only when the head it finds is intact and sealed with this process's key:
 * otherwise it leaves it as it is, so evidence of tampering stays until an operator re-seals
 * (`npm run audit:verify -- --seal`, see verify.ts). Rows a process without the key chained after
 * the sealed end are the exception: the next keyed append takes them in and names them (without-key.ts).
 */
import { createHmac, createSecretKey, type KeyObject } from "node:crypto";
import { and, asc, desc, eq, gt, isNotNull, isNull, lt, sql } from "drizzle-orm";
import { auditChainHead, auditLogs } from "../../../../db/schema/index.ts";
import type { Db, Tx } from "../data/db.ts";
import { config } from "../config/config.ts";
import { constantTimeEqual, sha256Hex } from "../platform/hashing.ts";
import { GENESIS_HASH, chainsFrom, isCountedRow, latestCheckpoint, prunedPoint, type ChainPoint, type ChainedContent } from "./chain.ts";

const HEAD_ROW_ID = 1;
const SUM_MODULUS = 1n << 256n;
const SCAN_CHUNK = 2000;

type Reader = Pick<Db, "select">;

/** The head's sealed fields. */
export interface ChainHead {
  lastId: number | null;
  lastHash: string;
  prunedId: number | null;
  prunedHash: string;
  sealedSum: string;
  keyId: string | null;
  mac: string | null;
}

/** The key this process seals with (AUDIT_CHAIN_KEY), or null. */
export function chainKey(): Buffer | null {
  return config().auditChainKey;
}

// The key as a KeyObject, made once per key: HMAC with a raw Buffer re-imports it on every call.
const keyObjects = new WeakMap<Buffer, KeyObject>();
const keyIds = new WeakMap<Buffer, string>();

function hmacHex(key: Buffer, text: string): string {
  let keyObject = keyObjects.get(key);
  if (!keyObject) keyObjects.set(key, (keyObject = createSecretKey(key)));
  return createHmac("sha256", keyObject).update(text).digest("hex");
}

/** A fingerprint naming the key (not revealing it), stored so a head sealed with another key is told apart. */
export function keyIdOf(key: Buffer | null): string | null {
  if (!key) return null;
  let id = keyIds.get(key);
  if (id === undefined) keyIds.set(key, (id = hmacHex(key, "b1-audit-chain:key-id").slice(0, 16)));
  return id;
}

function rowDigest(key: Buffer | null, text: string): bigint {
  const hex = key ? hmacHex(key, text) : sha256Hex(text);
  return BigInt("0x" + hex);
}

function countOf(actionDetails: string | null): unknown {
  try {
    const parsed = JSON.parse(actionDetails ?? "null") as { count?: unknown } | null;
    return parsed && typeof parsed === "object" ? (parsed.count ?? null) : null;
  } catch {
    return null;
  }
}

/** A counted row's share of the sum: its id and current count. */
export function countDigest(key: Buffer | null, row: { id: number; actionDetails: string | null }): bigint {
  return rowDigest(key, JSON.stringify(["count", row.id, countOf(row.actionDetails)]));
}

/** A row from before the chain (no hash): its share of the sum covers every column as stored. */
export function unchainedDigest(key: Buffer | null, row: ChainedContent): bigint {
  const columns = [row.id, row.createdAt, row.userId, row.actionType, row.result, row.actionDetails, row.ipAddress, row.userAgent];
  return rowDigest(key, JSON.stringify(["unchained", ...columns]));
}

/** A running total as the head stores it: mod 2^256, 64 hex digits. */
export function sumAsHex(total: bigint): string {
  return (((total % SUM_MODULUS) + SUM_MODULUS) % SUM_MODULUS).toString(16).padStart(64, "0");
}

export function addToSum(sum: string, delta: bigint): string {
  return sumAsHex(BigInt("0x" + sum) + delta);
}

function headMac(key: Buffer, head: ChainHead): string {
  const fields = [head.lastId, head.lastHash, head.prunedId, head.prunedHash, head.sealedSum, head.keyId];
  return hmacHex(key, JSON.stringify(["b1-audit-chain:head", ...fields]));
}

export async function readHead(db: Reader): Promise<ChainHead | undefined> {
  const row = (await db.select().from(auditChainHead).where(eq(auditChainHead.id, HEAD_ROW_ID)))[0];
  if (!row) return undefined;
  const { lastId, lastHash, prunedId, prunedHash, sealedSum, keyId, mac } = row;
  return { lastId, lastHash, prunedId, prunedHash, sealedSum, keyId, mac };
}

/** Whether `head` was written by the portal with `key` (with no key: written without one). */
export function headIsSealedWith(head: ChainHead, key: Buffer | null): boolean {
  if (head.keyId !== keyIdOf(key)) return false;
  if (!key) return head.mac === null;
  return head.mac !== null && constantTimeEqual(Buffer.from(headMac(key, head)), Buffer.from(head.mac));
}

/** Stores `fields` as the head, sealed with `key`. */
export async function writeHead(db: Pick<Db, "insert">, key: Buffer | null, fields: Omit<ChainHead, "keyId" | "mac">): Promise<void> {
  const keyId = keyIdOf(key);
  const head: ChainHead = { ...fields, keyId, mac: null };
  head.mac = key ? headMac(key, head) : null;
  const values = { ...head, updatedAt: Date.now() };
  await db
    .insert(auditChainHead)
    .values({ id: HEAD_ROW_ID, ...values })
    .onConflictDoUpdate({ target: auditChainHead.id, set: values });
}

/**
 * The head recomputed from the rows as they are now (trusting them): the last row, the latest
 * checkpoint and the full sum. For a first head without a key, and for an operator's re-seal.
 */
export async function computeHead(db: Reader, key: Buffer | null): Promise<Omit<ChainHead, "keyId" | "mac">> {
  const pruned = prunedPoint(await latestCheckpoint(db));
  const last = (await db.select({ id: auditLogs.id, hash: auditLogs.hash }).from(auditLogs).orderBy(desc(auditLogs.id)).limit(1))[0];
  let sum = 0n;
  // Rows without a hash count as from before the chain only while it has not started (verify.ts).
  if (pruned.hash === GENESIS_HASH) {
    const firstChained = (
      await db.select({ id: auditLogs.id }).from(auditLogs).where(isNotNull(auditLogs.hash)).orderBy(asc(auditLogs.id)).limit(1)
    )[0];
    const before = firstChained ? lt(auditLogs.id, firstChained.id) : undefined;
    for await (const row of scan(db, and(isNull(auditLogs.hash), before))) sum += unchainedDigest(key, row);
  }
  // One query, in no order, so it reads the result index (the sum does not depend on the order).
  const counted = await db
    .select({ id: auditLogs.id, actionDetails: auditLogs.actionDetails })
    .from(auditLogs)
    .where(and(eq(auditLogs.result, "blocked"), isNotNull(auditLogs.hash)));
  for (const row of counted) sum += countDigest(key, row);
  return {
    lastId: last?.id ?? pruned.id,
    lastHash: last ? (last.hash ?? GENESIS_HASH) : pruned.hash,
    prunedId: pruned.id,
    prunedHash: pruned.hash,
    sealedSum: sumAsHex(sum),
  };
}

async function* scan(db: Reader, filter: ReturnType<typeof and>) {
  let after: number | null = null;
  for (;;) {
    const rows = await db
      .select()
      .from(auditLogs)
      .where(after === null ? filter : and(filter, gt(auditLogs.id, after)))
      .orderBy(asc(auditLogs.id))
      .limit(SCAN_CHUNK);
    yield* rows;
    if (rows.length < SCAN_CHUNK) return;
    after = rows.at(-1)!.id;
  }
}

/** Whether the log begins with rows from before the chain (no hash): they always come first. */
async function startsBeforeChain(db: Reader): Promise<boolean> {
  const first = (await db.select({ hash: auditLogs.hash }).from(auditLogs).orderBy(asc(auditLogs.id)).limit(1))[0];
  return first !== undefined && first.hash === null;
}

/**
 * The head a writer may move: the stored one when sealed with this key; null when there is none
 * yet or it cannot be trusted (the writer then leaves it alone). With no head at all, the first
 * one is written here: on an empty log (any key), or from the rows as they are when no key is set
 * and no row predates the chain (summing those can take seconds: that is the operator's --seal).
 */
async function headToMove(tx: Tx, key: Buffer | null, emptyLog: boolean): Promise<ChainHead | null | "created"> {
  const head = await readHead(tx);
  if (head) return headIsSealedWith(head, key) ? head : null;
  if (emptyLog || (!key && !(await startsBeforeChain(tx)))) {
    await writeHead(tx, key, await computeHead(tx, key));
    return "created";
  }
  return null;
}

/** The head and the newest row, read together under the chain lock before an append (one query when there is a head). */
export async function readChainTip(db: Reader): Promise<{ head: ChainHead | undefined; newest: ChainPoint | undefined }> {
  const newestRow = (column: typeof auditLogs.id | typeof auditLogs.hash) =>
    sql`(select ${column} from ${auditLogs} order by ${auditLogs.id} desc limit 1)`;
  const [row] = await db
    .select({
      lastId: auditChainHead.lastId,
      lastHash: auditChainHead.lastHash,
      prunedId: auditChainHead.prunedId,
      prunedHash: auditChainHead.prunedHash,
      sealedSum: auditChainHead.sealedSum,
      keyId: auditChainHead.keyId,
      mac: auditChainHead.mac,
      newestId: newestRow(auditLogs.id).mapWith(Number),
      newestHash: newestRow(auditLogs.hash).mapWith(String),
    })
    .from(auditChainHead)
    .where(eq(auditChainHead.id, HEAD_ROW_ID));
  if (row) {
    const { newestId, newestHash, ...head } = row as typeof row & { newestId: number | null; newestHash: string | null };
    return { head, newest: newestId === null ? undefined : { id: newestId, hash: newestHash ?? GENESIS_HASH } };
  }
  const [newest] = await db.select({ id: auditLogs.id, hash: auditLogs.hash }).from(auditLogs).orderBy(desc(auditLogs.id)).limit(1);
  return { head: undefined, newest: newest && { id: newest.id, hash: newest.hash ?? GENESIS_HASH } };
}

/** What an append may do with the head it read: move it (sealed with this key), nothing (null: not trusted), or make the first (undefined: none yet). */
export function movableHead(head: ChainHead | undefined, key: Buffer | null): ChainHead | null | undefined {
  if (!head) return undefined;
  return headIsSealedWith(head, key) ? head : null;
}

/**
 * After appending `rows` (chained in order) onto `previous`, inside the append's transaction with
 * the lock held: one write of the head, whatever the number of rows. `head` is movableHead's answer
 * (possibly already moved in memory over rows written without the key, see without-key.ts).
 */
export async function moveHeadAfterAppends(
  tx: Tx,
  key: Buffer | null,
  head: ChainHead | null | undefined,
  previous: ChainPoint,
  rows: readonly (ChainedContent & { hash: string })[],
): Promise<void> {
  if (head === null || rows.length === 0) return;
  if (head === undefined) {
    // The first head, from the rows as they now are (see headToMove).
    if (previous.id === null || (!key && !(await startsBeforeChain(tx)))) await writeHead(tx, key, await computeHead(tx, key));
    return;
  }
  // The head must be the row these chained onto: if rows were removed or added since, leave the evidence.
  if (head.lastId !== previous.id || head.lastHash !== previous.hash) return;
  let sealedSum = head.sealedSum;
  for (const row of rows) if (isCountedRow(row)) sealedSum = addToSum(sealedSum, countDigest(key, row));
  const last = rows.at(-1)!;
  await writeHead(tx, key, { ...head, lastId: last.id, lastHash: last.hash, sealedSum });
}

/** After a counted row's details went from `before` to `after` (lock held). */
export async function moveHeadAfterCount(tx: Tx, id: number, before: string | null, after: string | null): Promise<void> {
  const key = chainKey();
  const head = await headToMove(tx, key, false);
  if (head === null || head === "created") return;
  // A row after the sealed end (written without the key) enters the sum, with its count then, when it is taken in (without-key.ts).
  if (head.lastId === null || id > head.lastId) return;
  const delta = countDigest(key, { id, actionDetails: after }) - countDigest(key, { id, actionDetails: before });
  await writeHead(tx, key, { ...head, sealedSum: addToSum(head.sealedSum, delta) });
}

/**
 * After pruning `rows` (the oldest, in id order) that resumed at `resumed` (lock held): the head
 * moves its start only when the rows pruned are the chain as sealed, so a prefix deleted outside
 * the portal is not absorbed by the next prune.
 */
export async function moveHeadAfterPrune(tx: Tx, resumed: ChainPoint, rows: (ChainedContent & { hash: string | null })[]): Promise<void> {
  const key = chainKey();
  const head = await headToMove(tx, key, false);
  if (head === null || head === "created" || rows.length === 0) return;
  if (head.prunedId !== resumed.id || head.prunedHash !== resumed.hash) return;
  let previous = resumed.hash;
  let sum = head.sealedSum;
  for (const row of rows) {
    if (row.hash === null) {
      if (previous !== GENESIS_HASH) return;
      sum = addToSum(sum, -unchainedDigest(key, row));
      continue;
    }
    if (!chainsFrom(previous, { ...row, hash: row.hash })) return;
    previous = row.hash;
    if (isCountedRow(row)) sum = addToSum(sum, -countDigest(key, row));
  }
  const last = rows.at(-1)!;
  await writeHead(tx, key, { ...head, prunedId: last.id, prunedHash: last.hash ?? GENESIS_HASH, sealedSum: sum });
}
