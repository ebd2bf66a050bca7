/**
 * Bulk fixtures for scale work (seed:scale, bench, tests): users, audit rows and sessions written
 * through the drizzle schema in multi-row inserts inside transactions (both engines).
 */
import { desc, eq } from "drizzle-orm";
import { auditLogs, roles, userRoles, users } from "../../db/schema/index.ts";
import { AUDIT_ACTION_LABELS, type AuditResult } from "../../src/lib/audit/actions.ts";
import { GENESIS_HASH, chainHash, isCountedRow, latestCheckpoint, prunedPoint, type ChainPoint } from "../../src/lib/server/audit/chain.ts";
import { addToSum, chainKey, countDigest, headIsSealedWith, readHead, sumAsHex, writeHead } from "../../src/lib/server/audit/head.ts";
import { pgPool, sqliteClient, type Db, type Tx } from "../../src/lib/server/data/db.ts";
import { holdLock } from "../../src/lib/server/data/dialect.ts";
import { hashPassword } from "../../src/lib/server/auth/password/hash.ts";
import { createSession } from "../../src/lib/server/sessions/session.ts";

export const SCALE_PASSWORD = "Senha@Escala1";
const YEAR_MS = 365 * 24 * 60 * 60 * 1000;
const BATCH = 20_000;
/** Rows per INSERT statement (under SQLite's limit of bound values). */
const ROWS_PER_INSERT = 500;

/** Deterministic pseudo-random numbers so two runs build the same data. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1_664_525 + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

/** Writes `count` rows in multi-row inserts of `ROWS_PER_INSERT`, one transaction per `BATCH` rows. */
async function inBatches<Row>(db: Db, count: number, row: (index: number) => Row, insert: (tx: Tx, rows: Row[]) => Promise<unknown>) {
  for (let start = 0; start < count; start += BATCH) {
    await db.transaction(async (tx) => {
      for (let from = start; from < Math.min(count, start + BATCH); from += ROWS_PER_INSERT) {
        const rows: Row[] = [];
        for (let index = from; index < Math.min(count, start + BATCH, from + ROWS_PER_INSERT); index++) rows.push(row(index));
        await insert(tx, rows);
      }
    });
  }
}

/** `count` confirmed users `pessoa N` (pessoa-N@b1.example.com), all with SCALE_PASSWORD, role visualizador. */
export async function insertScaleUsers(db: Db, count: number, now = Date.now()): Promise<string[]> {
  const passwordHash = await hashPassword(SCALE_PASSWORD);
  const [viewer] = await db.select({ id: roles.id }).from(roles).where(eq(roles.name, "visualizador"));
  const ids = Array.from({ length: count }, () => crypto.randomUUID());
  await inBatches(
    db,
    count,
    (index) => ({
      id: ids[index]!,
      email: `pessoa-${index}@b1.example.com`,
      fullName: `Pessoa ${index}`,
      passwordHash,
      emailConfirmedAt: now,
      createdAt: now - YEAR_MS,
    }),
    (tx, rows) => tx.insert(users).values(rows),
  );
  await inBatches(
    db,
    count,
    (index) => ({ userId: ids[index]!, roleId: viewer!.id }),
    (tx, rows) => tx.insert(userRoles).values(rows),
  );
  return ids;
}

const ACTIONS = Object.keys(AUDIT_ACTION_LABELS);
const RESULTS: AuditResult[] = ["success", "success", "success", "success", "failure", "blocked"];

/** From this many rows on, the audit table's secondary indexes are dropped and rebuilt after the load (faster than keeping them up to date row by row). */
const REBUILD_INDEXES_FROM = 1_000_000;
/** Rows per transaction (SQLite) and per INSERT … SELECT FROM unnest(…) statement (PostgreSQL). */
const AUDIT_CHUNK = 50_000;

type AuditTuple = [
  id: number,
  createdAt: number,
  userId: string | null,
  actionType: string,
  result: string,
  details: string,
  ip: string,
  userAgent: string,
  hash: string,
];
const AUDIT_COLUMNS = "id, created_at, user_id, action_type, result, action_details, ip_address, user_agent, hash";
const USER_AGENT = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36";

/**
 * Where the seed's rows go: after the last row (or the last pruned one), with the head to move
 * when it is the portal's (sealed with this process's key, ending at that row) or when the log is
 * empty and has none yet. Otherwise the head is left as it is (verify goes on saying what it said).
 */
async function auditChainEnd(db: Db): Promise<{ previous: ChainPoint; firstId: number; moveHead: "move" | "create" | null }> {
  const [last] = await db.select({ id: auditLogs.id, hash: auditLogs.hash }).from(auditLogs).orderBy(desc(auditLogs.id)).limit(1);
  const pruned = prunedPoint(await latestCheckpoint(db));
  const previous = last ? { id: last.id, hash: last.hash ?? GENESIS_HASH } : pruned;
  const head = await readHead(db);
  const moveHead = head
    ? headIsSealedWith(head, chainKey()) && head.lastId === previous.id && head.lastHash === previous.hash
      ? "move"
      : null
    : last
      ? null
      : "create";
  return { previous, firstId: Math.max(last?.id ?? 0, pruned.id ?? 0) + 1, moveHead };
}

/**
 * `count` audit rows spread evenly over the year before `now`; ~1 in 10 without a user. Chained as
 * the portal chains them (chain.ts: each row's hash over the previous one, ids given in order after
 * the last row) and the head moved and sealed at the end (head.ts), so `npm run audit:verify`
 * passes on the result. Meant for a database nothing else writes to meanwhile (the seed, a bench,
 * a test). Written with one prepared statement per row in 50,000-row transactions (SQLite) or one
 * multi-row INSERT … SELECT FROM unnest(arrays) per 50,000 rows, all in one transaction (PostgreSQL: the COPY-like path
 * the pg driver offers without another package). `progress` is called after each chunk with the rows written.
 */
export async function insertAuditRows(
  db: Db,
  count: number,
  userIds: readonly string[],
  now = Date.now(),
  seed = 1,
  progress?: (written: number) => void,
): Promise<void> {
  const next = random(seed);
  const start = now - YEAR_MS;
  const key = chainKey();
  const end = await auditChainEnd(db);
  let previousHash = end.previous.hash;
  let counted = 0n;
  const row = (index: number): AuditTuple => {
    const content = {
      id: end.firstId + index,
      createdAt: Math.floor(start + (index / count) * YEAR_MS),
      userId: userIds.length && next() > 0.1 ? userIds[Math.floor(next() * userIds.length)]! : null,
      actionType: ACTIONS[Math.floor(next() * ACTIONS.length)]!,
      result: RESULTS[Math.floor(next() * RESULTS.length)]!,
      actionDetails: `{"n":${index}}`,
      ipAddress: `10.0.${Math.floor(next() * 255)}.${Math.floor(next() * 255)}`,
      userAgent: USER_AGENT,
    };
    previousHash = chainHash(previousHash, content);
    if (isCountedRow(content)) counted += countDigest(key, content);
    const { id, createdAt, userId, actionType, result, actionDetails, ipAddress, userAgent } = content;
    return [id, createdAt, userId, actionType, result, actionDetails, ipAddress, userAgent, previousHash];
  };
  const rebuild = count >= REBUILD_INDEXES_FROM ? await dropAuditIndexes(db) : null;
  const sqlite = sqliteClient(db);
  const pool = pgPool(db);
  if (sqlite) {
    const insert = sqlite.prepare(`insert into audit_logs (${AUDIT_COLUMNS}) values (?, ?, ?, ?, ?, ?, ?, ?, ?)`);
    for (let from = 0; from < count; from += AUDIT_CHUNK) {
      await db.transaction(async () => {
        for (let index = from; index < Math.min(count, from + AUDIT_CHUNK); index++) insert.run(row(index));
      });
      progress?.(Math.min(count, from + AUDIT_CHUNK));
    }
  } else if (pool) {
    const client = await pool.connect();
    let failed: Error | undefined;
    try {
      // One transaction, its settings local to it: through PgBouncer in transaction pooling a
      // session `SET` would stay on the server connection for whichever client gets it next.
      // Bulk load: losing the last commit on a crash costs nothing here (the seed is rerun).
      await client.query("begin");
      await client.query("set local synchronous_commit = off");
      // The next chunk (and its hashes) is built while the server stores the one before.
      let storing: Promise<unknown> = Promise.resolve();
      for (let from = 0; from < count; from += AUDIT_CHUNK) {
        const columns: unknown[][] = [[], [], [], [], [], [], [], [], []];
        for (let index = from; index < Math.min(count, from + AUDIT_CHUNK); index++)
          row(index).forEach((value, c) => columns[c]!.push(value));
        await storing;
        if (from > 0) progress?.(from);
        storing = client.query(
          `insert into audit_logs (${AUDIT_COLUMNS}) select * from unnest($1::integer[], $2::bigint[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[])`,
          columns,
        );
      }
      await storing;
      if (count > 0) progress?.(count);
      // The ids were given here: the identity column's sequence goes on after them.
      if (count > 0) await client.query("select setval(pg_get_serial_sequence('audit_logs', 'id'), $1)", [end.firstId + count - 1]);
      await client.query("commit");
    } catch (error) {
      failed = error as Error;
      throw error;
    } finally {
      // A client that failed mid-transaction is closed (the server rolls back), never reused.
      client.release(failed);
    }
  }
  if (rebuild) await rebuild();
  if (count === 0 || !end.moveHead) return;
  const lastId = end.firstId + count - 1;
  await db.transaction(async (tx) => {
    await holdLock(tx, "audit-chain");
    const head = end.moveHead === "move" ? (await readHead(tx))! : null;
    const fields = head
      ? { ...head, sealedSum: addToSum(head.sealedSum, counted) }
      : { prunedId: end.previous.id, prunedHash: end.previous.hash, sealedSum: sumAsHex(counted) };
    await writeHead(tx, key, { ...fields, lastId, lastHash: previousHash });
  });
}

/** Drops the audit table's secondary indexes and returns what recreates them, with the very DDL the migrations left. */
export async function dropAuditIndexes(db: Db): Promise<() => Promise<void>> {
  const sqlite = sqliteClient(db);
  if (sqlite) {
    const indexes = sqlite
      .prepare("select name, sql from sqlite_master where type = 'index' and tbl_name = 'audit_logs' and sql is not null")
      .all() as { name: string; sql: string }[];
    for (const index of indexes) sqlite.exec(`drop index "${index.name}"`);
    return async () => {
      for (const index of indexes) sqlite.exec(index.sql);
    };
  }
  const pool = pgPool(db)!;
  const { rows } = await pool.query<{ name: string; sql: string }>(
    "select indexname as name, indexdef as sql from pg_indexes where tablename = 'audit_logs' and indexname not like '%_pkey'",
  );
  for (const index of rows) await pool.query(`drop index "${index.name}"`);
  return async () => {
    // Index builds sort in memory up to this much, then on disk; the default (64 MB) spills at 10M rows.
    // In one transaction with the setting local to it (PgBouncer: see insertAuditRows).
    const client = await pool.connect();
    let failed: Error | undefined;
    try {
      await client.query("begin");
      await client.query("set local maintenance_work_mem = '256MB'");
      for (const index of rows) await client.query(index.sql);
      await client.query("commit");
    } catch (error) {
      failed = error as Error;
      throw error;
    } finally {
      client.release(failed);
    }
  };
}

/** Fresh planner statistics, as an operator runs after a bulk load (SQLite `ANALYZE`; PostgreSQL `VACUUM ANALYZE`, which also marks the pages all-visible for index-only scans). */
export async function analyzeDatabase(db: Db): Promise<void> {
  const sqlite = sqliteClient(db);
  if (sqlite) sqlite.exec("analyze");
  else await pgPool(db)!.query("vacuum analyze");
}

/** `count` sessions (the app's token format) opened at moments spread over the last year. */
export async function insertSessions(db: Db, count: number, userIds: readonly string[], now = Date.now(), seed = 2): Promise<void> {
  const next = random(seed);
  for (let index = 0; index < count; index += ROWS_PER_INSERT) {
    const batch = [];
    for (let i = index; i < Math.min(count, index + ROWS_PER_INSERT); i++) {
      batch.push(
        createSession(
          db,
          userIds[i % userIds.length]!,
          { ipAddress: "10.1.0.1", userAgent: "seed-scale" },
          now - Math.floor(next() * YEAR_MS),
        ),
      );
    }
    await Promise.all(batch);
  }
}
