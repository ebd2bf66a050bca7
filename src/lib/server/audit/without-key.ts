/**
 * Rows written without AUDIT_CHAIN_KEY after the sealed end (an instance or a script run without
 * the key): they chain by hash but cannot move the head, and every later keyed writer would find
 * the head behind the log and leave it there for good. So the next keyed append takes them in:
 * when they chain from the sealed end, the head moves over them and a row of its own
 * (`audit_rows_without_key`, with an HMAC over the range and the hash it ends on) names them, so
 * verification keeps saying which rows came from outside the key, for as long as they exist.
 */
import { createHmac } from "node:crypto";
import { asc, gt } from "drizzle-orm";
import { auditLogs } from "../../../../db/schema/index.ts";
import type { RowsWithoutKey } from "../../audit/chain-state.ts";
import type { Db, Tx } from "../data/db.ts";
import { constantTimeEqual } from "../platform/hashing.ts";
import { chainPointBefore, chainsFrom, isCountedRow, type ChainPoint, type ChainedContent } from "./chain.ts";
import { addToSum, chainKey, countDigest, keyIdOf, readHead, type ChainHead } from "./head.ts";

export const ROWS_WITHOUT_KEY_ACTION = "audit_rows_without_key";

/** More rows than this after the sealed end are not taken in by a request: that is the operator's `--seal`. */
const MAX_ROWS_TAKEN_IN = 1000;

function rangeMac(key: Buffer, range: RowsWithoutKey, endHash: string): string {
  const fields = [range.firstId, range.lastId, range.rows, endHash];
  return createHmac("sha256", key)
    .update(JSON.stringify(["b1-audit-chain:rows-without-key", ...fields]))
    .digest("hex");
}

/**
 * Under the chain lock, before an append, given the head (sealed with `key`) and the newest row:
 * when the rows after the head chain from it, returns the head moved over them (in memory: the
 * append writes it) and the details of the row that names them (the caller appends it first).
 * Null when there is nothing to take in or it cannot be trusted (a row without hash, a chain that
 * does not follow from the head, too many rows): then the evidence stays as it is.
 */
export async function takeInRowsWithoutKey(
  tx: Tx,
  key: Buffer | null,
  head: ChainHead,
  newest: ChainPoint | undefined,
): Promise<{ head: ChainHead; details: RowsWithoutKey & { mac: string } } | null> {
  // The usual case, nothing after the sealed end, costs no query (the newest id came with the head).
  if (!key || !newest || newest.id === null || newest.id <= (head.lastId ?? 0)) return null;
  const outside = await tx
    .select()
    .from(auditLogs)
    .where(gt(auditLogs.id, head.lastId ?? 0))
    .orderBy(asc(auditLogs.id))
    .limit(MAX_ROWS_TAKEN_IN + 1);
  if (outside.length > MAX_ROWS_TAKEN_IN) return null;
  const start = await chainPointBefore(tx, outside[0]!.id);
  if (start.id !== head.lastId || start.hash !== head.lastHash) return null;
  let previous = head.lastHash;
  let sealedSum = head.sealedSum;
  for (const row of outside) {
    if (row.hash === null || !chainsFrom(previous, { ...row, hash: row.hash })) return null;
    previous = row.hash;
    if (isCountedRow(row)) sealedSum = addToSum(sealedSum, countDigest(key, row));
  }
  const range = { firstId: outside[0]!.id, lastId: outside.at(-1)!.id, rows: outside.length };
  return {
    head: { ...head, lastId: range.lastId, lastHash: previous, sealedSum },
    details: { ...range, mac: rangeMac(key, range, previous) },
  };
}

/** The range a row names, when it is a row of this kind written with `key` right after that range (else null: forged). */
export function rowsNamedBy(key: Buffer | null, row: ChainedContent, previous: ChainPoint): RowsWithoutKey | null {
  if (!key || row.actionType !== ROWS_WITHOUT_KEY_ACTION) return null;
  let details: Partial<RowsWithoutKey & { mac: unknown }>;
  try {
    details = JSON.parse(row.actionDetails ?? "null") ?? {};
  } catch {
    return null;
  }
  const { firstId, lastId, rows, mac } = details;
  if (!Number.isInteger(firstId) || !Number.isInteger(lastId) || !Number.isInteger(rows) || typeof mac !== "string") return null;
  const range = { firstId: firstId!, lastId: lastId!, rows: rows! };
  if (previous.id !== range.lastId) return null;
  const expected = rangeMac(key, range, previous.hash);
  return constantTimeEqual(Buffer.from(expected), Buffer.from(mac)) ? range : null;
}

/**
 * Why a command run by hand (`npm run user`, `npm run reading:digest`) must not write to this
 * database's audit log: the head is sealed with a key other than the one in its environment (or
 * with one while it has none). Null when it may. Checked before the command changes anything.
 */
export async function writerKeyRefusal(db: Pick<Db, "select">): Promise<string | null> {
  const head = await readHead(db);
  const key = chainKey();
  if (!head || head.keyId === keyIdOf(key)) return null;
  if (head.keyId === null)
    return "o log de auditoria deste banco não é selado com AUDIT_CHAIN_KEY, mas este terminal define uma: use o mesmo valor do servidor (vazio) e rode o comando de novo";
  return key
    ? "o log de auditoria deste banco é selado com AUDIT_CHAIN_KEY e a deste terminal é outra: exporte a mesma chave do servidor e rode o comando de novo"
    : "o log de auditoria deste banco é selado com AUDIT_CHAIN_KEY, que não está definida neste terminal: exporte a mesma chave do servidor e rode o comando de novo (sem ela, o que o comando gravar fica fora do selo)";
}
