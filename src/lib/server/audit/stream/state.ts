/**
 * Audit streaming's state in the database (table audit_destinations, one row per destination).
 * The audit rows are the outbox: a destination's row only says up to which chain id it was delivered,
 * whether an administrator paused it, why it stopped, and which instance delivers it (a lease).
 *
 * Every step is one conditional UPDATE (no session-level lock), so it works the same on SQLite, on
 * PostgreSQL and through a transaction-pooling PgBouncer. Times that decide the lease come from the
 * database's clock (nowMillis), so instances with skewed clocks still agree on who holds it.
 */
import { and, asc, count, desc, eq, gt, gte, isNull, lt, min, or, sql } from "drizzle-orm";
import { auditDestinations, auditLogs, users } from "../../../../../db/schema/index.ts";
import { engineOfDb, type Db } from "../../data/db.ts";
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

/** Every statement runs inside a transaction: on SQLite, a statement outside one while another is open is refused (db.ts). */
function inTx<T>(db: Db, work: (tx: Db) => Promise<T>): Promise<T> {
  return db.transaction((tx) => work(tx as unknown as Db));
}

/** Reads on the stream's own read-only SQLite connection run as they are (no other transaction shares it); on the pool, in a transaction. */
function ownReader<T>(reader: Db, work: (tx: Db) => Promise<T>): Promise<T> {
  return engineOfDb(reader) === "sqlite" ? work(reader) : inTx(reader, work);
}

/** The destination's row, created (from the start of the log) the first time it is configured. */
export async function ensureDestination(db: Db, name: DestinationName): Promise<void> {
  await inTx(db, (tx) => tx.insert(auditDestinations).values({ name, updatedAt: Date.now() }).onConflictDoNothing());
}

/**
 * Takes or renews the lease for `owner`: one conditional UPDATE that succeeds only when the lease
 * is free, expired or already `owner`'s. Returns the row when `owner` holds it now, else null.
 */
export async function claimLease(db: Db, name: DestinationName, owner: string, leaseMs: number): Promise<DestinationRow | null> {
  const rows = await inTx(db, (tx) =>
    tx
      .update(auditDestinations)
      .set({ leaseOwner: owner, leaseUntil: sql`${nowMillis} + ${leaseMs}`, updatedAt: Date.now() })
      .where(
        and(
          eq(auditDestinations.name, name),
          or(eq(auditDestinations.leaseOwner, owner), isNull(auditDestinations.leaseOwner), lt(auditDestinations.leaseUntil, nowMillis)),
        ),
      )
      .returning(),
  );
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
 * The next rows after `afterId`, in chain order, and the hash the first one chains onto. `reader`
 * is, on SQLite, a read-only connection of the stream's own (WAL: it never waits for or blocks a
 * writer, and rows show there only once committed); on PostgreSQL, the pool.
 */
export async function readBatch(reader: Db, afterId: number, limit: number): Promise<{ rows: StreamedRow[]; prevHash: string }> {
  return ownReader(reader, async (tx) => {
    const rows = await tx
      .select({ ...auditRowColumns, hash: auditLogs.hash })
      .from(auditLogs)
      .leftJoin(users, eq(users.id, auditLogs.userId))
      .where(gt(auditLogs.id, afterId))
      .orderBy(asc(auditLogs.id))
      .limit(limit);
    const prevHash = rows.length ? (await chainPointBefore(tx, rows[0]!.id)).hash : "";
    return { rows, prevHash };
  });
}

/**
 * Moves the cursor from `fromId` to `toId` after a batch was acknowledged: only while `owner`
 * holds the lease and nobody moved the cursor meanwhile (an administrator's resend wins). True when moved.
 */
export async function advanceCursor(db: Db, name: DestinationName, owner: string, fromId: number, toId: number): Promise<boolean> {
  const rows = await inTx(db, (tx) =>
    tx
      .update(auditDestinations)
      .set({ deliveredId: toId, deliveredAt: Date.now(), updatedAt: Date.now() })
      .where(and(eq(auditDestinations.name, name), eq(auditDestinations.leaseOwner, owner), eq(auditDestinations.deliveredId, fromId)))
      .returning({ name: auditDestinations.name }),
  );
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
