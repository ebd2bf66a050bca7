import { asc, eq, gt } from "drizzle-orm";
import { auditLogs } from "../../../../db/schema/index.ts";
import type { ChainProblem, ChainState, RowsWithoutKey } from "../../audit/chain-state.ts";
import { readSnapshot, type Db } from "../data/db.ts";
import { holdLock } from "../data/dialect.ts";
import { GENESIS_HASH, chainsFrom, isCountedRow, latestCheckpoint, prunedPoint, type ChainPoint } from "./chain.ts";
import {
  chainKey,
  computeHead,
  countDigest,
  headIsSealedWith,
  keyIdOf,
  readHead,
  sumAsHex,
  unchainedDigest,
  writeHead,
  type ChainHead,
} from "./head.ts";
import { rowsNamedBy } from "./without-key.ts";

const VERIFY_CHUNK = 2000;

type Reader = Pick<Db, "select">;
type Pause = () => Promise<void>;
type Failure = Extract<ChainState, { ok: false }>;

const yieldToEvents: Pause = () => new Promise((resolve) => setImmediate(resolve));

interface Walked {
  start: ChainPoint;
  end: ChainPoint;
  count: number;
  unchained: number;
  /** The head's sum as these rows give it (reduced when compared). */
  sum: bigint;
  chainStarted: boolean;
  /** The ranges rows written with the key name as written without it (without-key.ts). */
  withoutKey: RowsWithoutKey[];
}

function failure(count: number, reason: ChainProblem, fields: Partial<Failure> = {}): Failure {
  return { ok: false, count, reason, brokenId: null, ...fields };
}

/**
 * Walks the rows in id order from the lowest id there is (a row with id ≤ 0 is forged: ids start
 * at 1), recomputing each hash and adding up the head's sum; stops at the first row that fails.
 * `from` resumes a walk after its last row.
 */
async function walkChain(reader: Reader, key: Buffer | null, pause: Pause, from?: Walked): Promise<Walked | Failure> {
  const start = from?.start ?? prunedPoint(await latestCheckpoint(reader));
  const state: Walked = from
    ? { ...from, withoutKey: [...from.withoutKey] }
    : { start, end: start, count: 0, unchained: 0, sum: 0n, chainStarted: start.hash !== GENESIS_HASH, withoutKey: [] };
  let after = from ? state.end.id : null;
  for (;;) {
    const rows = await reader
      .select()
      .from(auditLogs)
      .where(after === null ? undefined : gt(auditLogs.id, after))
      .orderBy(asc(auditLogs.id))
      .limit(VERIFY_CHUNK);
    for (const row of rows) {
      after = row.id;
      if (row.id < 1) return failure(state.count, "forged_id", { brokenId: row.id });
      if (row.hash === null) {
        // Rows written before the chain existed come first; one missing later means a row was forged or altered.
        if (state.chainStarted) return failure(state.count, "missing_hash", { brokenId: row.id });
        state.unchained += 1;
        state.sum += unchainedDigest(key, row);
        state.end = { id: row.id, hash: GENESIS_HASH };
        continue;
      }
      state.chainStarted = true;
      if (!chainsFrom(state.end.hash, { ...row, hash: row.hash })) return failure(state.count, "hash", { brokenId: row.id });
      state.count += 1;
      if (isCountedRow(row)) state.sum += countDigest(key, row);
      const named = rowsNamedBy(key, row, state.end);
      if (named) state.withoutKey.push(named);
      state.end = { id: row.id, hash: row.hash };
    }
    if (rows.length < VERIFY_CHUNK) return state;
    await pause();
  }
}

/** What the rows walked say against the head the portal last sealed. */
async function compareWithHead(reader: Reader, walked: Walked, head: ChainHead | undefined, key: Buffer | null): Promise<ChainState> {
  const { count, unchained, start, end, withoutKey } = walked;
  if (!head) {
    // An empty log that never held a row has no head yet (its first append writes it); anything else lost it.
    if (end.id === null) return { ok: true, count, unchained, sealed: key !== null, withoutKey };
    return failure(count, "head_missing");
  }
  if (head.keyId !== keyIdOf(key)) return failure(count, "head_key", { keySet: key !== null, sealedWithKey: head.keyId !== null });
  if (!headIsSealedWith(head, key)) return failure(count, "head_seal");
  if (head.prunedId !== start.id || head.prunedHash !== start.hash) return failure(count, "pruned");
  if (head.lastId !== end.id || head.lastHash !== end.hash) {
    const ends = { sealedLastId: head.lastId, lastId: end.id };
    if (head.lastId !== null) {
      const sealed = (await reader.select({ hash: auditLogs.hash }).from(auditLogs).where(eq(auditLogs.id, head.lastId)))[0];
      if (!sealed) return failure(count, "truncated", ends);
      if ((sealed.hash ?? GENESIS_HASH) !== head.lastHash) return failure(count, "replaced", { ...ends, brokenId: head.lastId });
    }
    const [first] = await reader
      .select({ id: auditLogs.id })
      .from(auditLogs)
      .where(gt(auditLogs.id, head.lastId ?? 0))
      .orderBy(asc(auditLogs.id))
      .limit(1);
    return failure(count, "extra_rows", { ...ends, brokenId: first?.id ?? end.id });
  }
  if (sumAsHex(walked.sum) !== head.sealedSum) return failure(count, "counts");
  return { ok: true, count, unchained, sealed: key !== null, withoutKey };
}

/**
 * Verifies every row of the audit log (the ones the viewer and the CSV show) and the head: on one
 * snapshot of the database, read in chunks with a pause between them, without locking writers.
 */
export async function verifyAuditChain(db: Db, pause: Pause = yieldToEvents, key: Buffer | null = chainKey()): Promise<ChainState> {
  return readSnapshot(db, async (reader) => {
    const head = await readHead(reader);
    const walked = await walkChain(reader, key, pause);
    if ("ok" in walked) return walked;
    return compareWithHead(reader, walked, head, key);
  });
}

export type SealResult =
  { ok: true; lastId: number | null; sealed: boolean } | { ok: false; state: Failure } | { ok: false; pruning: true };

/**
 * An operator's re-seal (`npm run audit:verify -- --seal`): after the rows are checked, the head
 * is rewritten from them with this key. Refused while any row fails; the rows are walked on a
 * snapshot, then only those appended since are checked under the chain lock.
 */
export async function sealChainHead(db: Db, pause: Pause = yieldToEvents, key: Buffer | null = chainKey()): Promise<SealResult> {
  const walked = await readSnapshot(db, (reader) => walkChain(reader, key, pause));
  if ("ok" in walked) return { ok: false, state: walked };
  return db.transaction(async (tx): Promise<SealResult> => {
    await holdLock(tx, "audit-chain");
    const start = prunedPoint(await latestCheckpoint(tx));
    if (start.id !== walked.start.id || start.hash !== walked.start.hash) return { ok: false, pruning: true };
    const tail = await walkChain(tx, key, async () => {}, walked);
    if ("ok" in tail) return { ok: false, state: tail };
    const head = await computeHead(tx, key);
    await writeHead(tx, key, head);
    return { ok: true, lastId: head.lastId, sealed: key !== null };
  });
}
