/**
 * Audit streaming's state in the database (table audit_destinations, one row per destination).
 * The audit rows are the outbox: a destination's row only says up to which chain id it was delivered,
 * whether an administrator paused it, why it stopped, and which instance delivers it (a lease).
 *
 * Every step is one conditional UPDATE (no session-level lock), so it works the same on SQLite, on
 * PostgreSQL and through a transaction-pooling PgBouncer. Times that decide the lease come from the
 * database's clock (nowMillis), so instances with skewed clocks still agree on who holds it.
 */
import { and, asc, count, desc, eq, gt, gte, isNull, lt, min, or, sql, type Placeholder } from "drizzle-orm";
import { auditDestinations, auditLogs, users } from "../../../../../db/schema/index.ts";
import { engineOfDb, sqliteClient, type Db } from "../../data/db.ts";
import { nowMillis, onPostgres } from "../../data/dialect.ts";
import { chainPointBefore } from "../chain.ts";
import { auditRowColumns } from "../query.ts";

export type DestinationName = "webhook" | "syslog";
export const DESTINATION_NAMES: readonly DestinationName[] = ["webhook", "syslog"];

export type DestinationRow = typeof auditDestinations.$inferSelect;

/** An audit row as streamed: its columns plus the user's e-mail and name as the audit page shows them. */
export interface StreamedRow {
  id: number;
  createdAt: number;
  userId: string | null;
  userEmail: string | null;
  userName: string | null;
  actionType: string;
  result: string;
  actionDetails: string | null;
  ipAddress: string | null;
  userAgent: string | null;
  hash: string | null;
}

/** A panel destination's settings, or undefined when there is no row (a read: the loops look often). */
export async function panelConfig(db: Db, name: DestinationName): Promise<DestinationRow | undefined> {
  return inTx(db, async (tx) => (await tx.select().from(auditDestinations).where(eq(auditDestinations.name, name)))[0]);
}

/** Every statement runs inside a transaction: on SQLite, a statement outside one while another is open is refused (db.ts). */
function inTx<T>(db: Db, work: (tx: Db) => Promise<T>): Promise<T> {
  return db.transaction((tx) => work(tx as unknown as Db));
}

/** The destination's row, created (from the start of the log) the first time it is configured. */
export async function ensureDestination(db: Db, name: DestinationName): Promise<void> {
  await inTx(db, (tx) => tx.insert(auditDestinations).values({ name, updatedAt: Date.now() }).onConflictDoNothing());
}

/**
 * The statements the delivery loop runs at every batch, built and prepared once per connection (unnamed, as
 * the session lookup's: PgBouncer in transaction pooling). Built and prepared anew each time, drizzle's
 * query building and SQLite's prepare were about 0.3 ms of the delivery thread's CPU per statement per batch.
 */
function prepareLoopStatements(db: Db) {
  const { name, leaseOwner, leaseUntil, deliveredId } = auditDestinations;
  return {
    claim: db
      .update(auditDestinations)
      .set({
        leaseOwner: sql`${sql.placeholder("owner")}`,
        leaseUntil: sql`${nowMillis} + ${sql.placeholder("leaseMs")}`,
        updatedAt: sql`${sql.placeholder("now")}`,
      })
      .where(
        and(eq(name, sql.placeholder("name")), or(eq(leaseOwner, sql.placeholder("owner")), isNull(leaseOwner), lt(leaseUntil, nowMillis))),
      )
      .returning()
      .prepare(""),
    advance: db
      .update(auditDestinations)
      .set({
        deliveredId: sql`${sql.placeholder("to")}`,
        deliveredAt: sql`${sql.placeholder("now")}`,
        updatedAt: sql`${sql.placeholder("now")}`,
      })
      .where(and(eq(name, sql.placeholder("name")), eq(leaseOwner, sql.placeholder("owner")), eq(deliveredId, sql.placeholder("from"))))
      .returning({ name })
      .prepare(""),
  };
}

/** The batch read: rows after `after`, in chain order, with the user's e-mail and name (placeholders when prepared). */
function batchQuery(reader: Db, after: number | Placeholder, limit: number | Placeholder) {
  return reader
    .select({ ...auditRowColumns, hash: auditLogs.hash })
    .from(auditLogs)
    .leftJoin(users, eq(users.id, auditLogs.userId))
    .where(gt(auditLogs.id, after))
    .orderBy(asc(auditLogs.id))
    .limit(limit);
}

const loopStatements = new WeakMap<Db, ReturnType<typeof prepareLoopStatements>>();
const batchReads = new WeakMap<Db, ReturnType<typeof preparedBatchQuery>>();

function preparedBatchQuery(reader: Db) {
  return batchQuery(reader, sql.placeholder("after"), sql.placeholder("limit")).prepare("");
}

/**
 * The prepared batch read where no other transaction can be open on the connection: the stream's read-only
 * SQLite connection, or PostgreSQL's pool. On a shared SQLite connection, null: the read is built each time,
 * so db.ts refuses it beside another transaction rather than reading that transaction's uncommitted rows.
 */
function preparedRead(reader: Db) {
  const sqlite = sqliteClient(reader);
  if (sqlite && !sqlite.readonly) return null;
  let read = batchReads.get(reader);
  if (!read) batchReads.set(reader, (read = preparedBatchQuery(reader)));
  return read;
}

function statementsOf(db: Db) {
  let statements = loopStatements.get(db);
  if (!statements) loopStatements.set(db, (statements = prepareLoopStatements(db)));
  return statements;
}

/**
 * One prepared statement as its own atomic step: inside a transaction on SQLite (this connection runs one
 * transaction at a time, and a statement beside an open one would join it; the first use prepares there too),
 * alone on PostgreSQL, where a single statement is atomic and a prepared one runs on the pool.
 */
function single<T>(db: Db, run: () => Promise<T>): Promise<T> {
  return engineOfDb(db) === "sqlite" ? inTx(db, run) : run();
}

/**
 * Takes or renews the lease for `owner`: one conditional UPDATE that succeeds only when the lease
 * is free, expired or already `owner`'s. Returns the row when `owner` holds it now, else null.
 */
export async function claimLease(db: Db, name: DestinationName, owner: string, leaseMs: number): Promise<DestinationRow | null> {
  const rows = await single(db, () => statementsOf(db).claim.execute({ name, owner, leaseMs, now: Date.now() }));
  return rows[0] ?? null;
}

/** Gives the lease up (a clean stop), so another instance takes over at once. */
export async function releaseLease(db: Db, name: DestinationName, owner: string): Promise<void> {
  await inTx(db, (tx) =>
    tx
      .update(auditDestinations)
      .set({ leaseOwner: null, leaseUntil: 0 })
      .where(and(eq(auditDestinations.name, name), eq(auditDestinations.leaseOwner, owner))),
  );
}

/**
 * The next rows after `afterId`, in chain order, and the hash the first one chains onto: `known`, the
 * hash of the row `afterId` as the deliverer last sent it, saves reading it again (a cursor moved by
 * an administrator's resend is read). `reader` is, on SQLite, a read-only connection of the stream's
 * own (WAL: it never waits for or blocks a writer, and rows show there only once committed); on PostgreSQL,
 * the pool (each statement alone: read committed gives two statements no common snapshot in a transaction either).
 */
export async function readBatch(
  reader: Db,
  afterId: number,
  limit: number,
  known?: { id: number; hash: string },
): Promise<{ rows: StreamedRow[]; prevHash: string }> {
  const prepared = preparedRead(reader);
  const rows = prepared ? await prepared.execute({ after: afterId, limit }) : await batchQuery(reader, afterId, limit);
  if (!rows.length) return { rows, prevHash: "" };
  if (known && known.id === afterId) return { rows, prevHash: known.hash };
  return { rows, prevHash: (await chainPointBefore(reader, rows[0]!.id)).hash };
}

/**
 * Moves the cursor from `fromId` to `toId` after a batch was acknowledged: only while `owner`
 * holds the lease and nobody moved the cursor meanwhile (an administrator's resend wins). True when moved.
 */
export async function advanceCursor(db: Db, name: DestinationName, owner: string, fromId: number, toId: number): Promise<boolean> {
  const rows = await single(db, () => statementsOf(db).advance.execute({ name, owner, from: fromId, to: toId, now: Date.now() }));
  return rows.length > 0;
}

/** Records a failed attempt (it will be retried). */
export async function recordError(db: Db, name: DestinationName, message: string): Promise<void> {
  const now = Date.now();
  await inTx(db, (tx) =>
    tx
      .update(auditDestinations)
      .set({ lastError: message.slice(0, 500), lastErrorAt: now, updatedAt: now })
      .where(eq(auditDestinations.name, name)),
  );
}

/** Stops the destination until an administrator resumes it (a refusal the receiver would repeat). */
export async function stopDestination(db: Db, name: DestinationName, owner: string, reason: string): Promise<void> {
  const now = Date.now();
  const text = reason.slice(0, 500);
  await inTx(db, (tx) =>
    tx
      .update(auditDestinations)
      .set({ stoppedReason: text, lastError: text, lastErrorAt: now, updatedAt: now })
      .where(and(eq(auditDestinations.name, name), eq(auditDestinations.leaseOwner, owner))),
  );
}

export async function setPaused(db: Db, name: DestinationName, paused: boolean): Promise<boolean> {
  const rows = await inTx(db, (tx) =>
    tx
      .update(auditDestinations)
      .set(paused ? { paused: 1, updatedAt: Date.now() } : { paused: 0, stoppedReason: null, updatedAt: Date.now() })
      .where(eq(auditDestinations.name, name))
      .returning({ name: auditDestinations.name }),
  );
  return rows.length > 0;
}

/**
 * "Reenviar a partir de…": the cursor goes back to just before chain id `fromId`, or before the
 * lowest chain id dated at or after `fromTime` (so every row of that date on goes again, even one
 * an instance with a slow clock dated earlier than a row before it). It only ever moves back, so a
 * resend never skips an undelivered row; a date after every row resends nothing (`nothing`).
 * Returns the cursor, or null when the destination is unknown.
 */
export async function resendFrom(
  db: Db,
  name: DestinationName,
  from: { id: number } | { time: number },
): Promise<{ cursor: number; nothing: boolean } | null> {
  return inTx(db, async (tx) => {
    let target: number;
    if ("id" in from) target = from.id - 1;
    else {
      const [row] = await tx
        .select({ first: min(auditLogs.id) })
        .from(auditLogs)
        .where(gte(auditLogs.createdAt, from.time));
      if (row?.first === null || row?.first === undefined) {
        const [current] = await tx
          .select({ deliveredId: auditDestinations.deliveredId })
          .from(auditDestinations)
          .where(eq(auditDestinations.name, name));
        return current ? { cursor: current.deliveredId, nothing: true } : null;
      }
      target = Number(row.first) - 1;
    }
    const rows = await tx
      .update(auditDestinations)
      .set({
        deliveredId: sql`${onPostgres ? sql`least` : sql`min`}(${auditDestinations.deliveredId}, ${Math.max(0, target)})`,
        updatedAt: Date.now(),
      })
      .where(eq(auditDestinations.name, name))
      .returning({ deliveredId: auditDestinations.deliveredId });
    return rows[0] ? { cursor: rows[0].deliveredId, nothing: false } : null;
  });
}

export interface DestinationState extends DestinationRow {
  /** Rows written after the cursor. */
  lagEvents: number;
  /** Age of the oldest row not delivered yet (0 when none). */
  lagSeconds: number;
  /** The newest chain id. */
  headId: number;
}

/** The destinations' rows with their lag, for the admin tab, /readyz and the metric. */
export async function destinationStates(db: Db, names: readonly DestinationName[]): Promise<DestinationState[]> {
  if (names.length === 0) return [];
  return inTx(db, async (tx) => {
    const states: DestinationState[] = [];
    const [head] = await tx.select({ id: auditLogs.id }).from(auditLogs).orderBy(desc(auditLogs.id)).limit(1);
    for (const name of names) {
      const [row] = await tx.select().from(auditDestinations).where(eq(auditDestinations.name, name));
      if (!row) continue;
      const [lag] = await tx
        .select({ n: count(), oldest: min(auditLogs.createdAt) })
        .from(auditLogs)
        .where(gt(auditLogs.id, row.deliveredId));
      const oldest = lag?.oldest === null || lag?.oldest === undefined ? null : Number(lag.oldest);
      states.push({
        ...row,
        lagEvents: Number(lag?.n ?? 0),
        lagSeconds: oldest === null ? 0 : Math.max(0, (Date.now() - oldest) / 1000),
        headId: head?.id ?? 0,
      });
    }
    return states;
  });
}
