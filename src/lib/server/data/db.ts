/**
 * The data layer's entry: one `Db` for the whole portal, on SQLite (the embedded default) or
 * PostgreSQL (`DATABASE_URL=postgres://…`, several instances on one database).
 *
 * The seam is asynchronous (decision in docs/decisions.md): the code is typed against drizzle's
 * PostgreSQL database, where every query is awaited. better-sqlite3 answers the same calls
 * synchronously inside the promise, so SQLite keeps its speed; its transactions are the one thing
 * drizzle cannot run asynchronously, so this module runs them itself (one at a time, see
 * `sqliteTransactions`).
 *
 * Over 200 lines because connecting, migrating, transactions and the shared handle of both
 * engines are one seam: splitting it would spread the engine checks across files.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { drizzle as drizzleSqlite } from "drizzle-orm/better-sqlite3";
import { migrate as migrateSqlite } from "drizzle-orm/better-sqlite3/migrator";
import { drizzle as drizzlePg, type NodePgQueryResultHKT } from "drizzle-orm/node-postgres";
import { readMigrationFiles } from "drizzle-orm/migrator";
import type { PgDatabase } from "drizzle-orm/pg-core";
import * as pgSchema from "../../../../db/schema/pg/index.ts";
import * as sqliteSchema from "../../../../db/schema/sqlite/all.ts";
import { engineOf, type Engine } from "../../../../db/schema/index.ts";
import { config } from "../config/config.ts";
import { isDatabaseUnavailable } from "./faults.ts";
import { readSetting } from "../../settings.ts";

/** The database as the portal's code sees it (see the module comment). */
export type Db = PgDatabase<NodePgQueryResultHKT, typeof pgSchema>;
/** The handle inside `db.transaction(...)`: writes through it commit or roll back together. */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

export type { Engine };

export const MIGRATIONS_DIR = path.resolve(readSetting("MIGRATIONS_DIR") ?? "db/migrations");
export const PG_MIGRATIONS_DIR = path.resolve(readSetting("PG_MIGRATIONS_DIR") ?? "db/migrations-pg");

interface Handle {
  engine: Engine;
  sqlite?: Database.Database;
  pool?: pg.Pool;
  /** The postgres:// address (migrations open a connection of their own). */
  url?: string;
  /** Runs `work` as the holder of the SQLite connection (drizzle's migrator opens its own transaction). */
  owning?: <T>(work: () => T) => T;
  /** Gives another drizzle over this connection or pool the same transactions (see getDb). */
  bindTransactions: (db: Db) => void;
}
// Kept on the object under a global symbol (not in a module-level map): the gate's bundle and the
// Astro server's bundle each hold a copy of this module but share one database (see getDb).
const HANDLE = Symbol.for("b1.db.handle");

function handleOf(db: Db): Handle {
  const handle = (db as unknown as { [HANDLE]?: Handle })[HANDLE];
  if (!handle) throw new Error("banco de dados desconhecido");
  return handle;
}

function setHandle(db: Db, handle: Handle): void {
  Object.defineProperty(db, HANDLE, { value: handle });
}

/** Which engine this handle talks to (for the few places where the engines differ: db-dialect.ts). */
export function engineOfDb(db: Db): Engine {
  return handleOf(db).engine;
}

/** The better-sqlite3 connection behind a SQLite handle (backup, pragmas), or null on PostgreSQL. */
export function sqliteClient(db: Db): Database.Database | null {
  return handleOf(db).sqlite ?? null;
}

/** The pg pool behind a PostgreSQL handle, or null on SQLite. */
export function pgPool(db: Db): pg.Pool | null {
  return handleOf(db).pool ?? null;
}

/**
 * Async transactions on the single SQLite connection. better-sqlite3 refuses a transaction whose
 * function returns a promise, so: one at a time (a promise queue), BEGIN IMMEDIATE (the write
 * lock first, so the CLI and the server queue behind each other instead of failing with
 * SQLITE_BUSY), COMMIT or ROLLBACK. A statement from outside the transaction while one is open
 * would silently join it: the connection refuses that loudly instead (only possible if a
 * transaction awaited something other than its own queries, which the code never does).
 */
function sqliteTransactions(sqlite: Database.Database): { owning: <T>(work: () => T) => T; bind: (db: Db) => void } {
  const inside = new AsyncLocalStorage<true>();
  let tail: Promise<unknown> = Promise.resolve();
  const prepare = sqlite.prepare.bind(sqlite);
  sqlite.prepare = ((source: string) => {
    if (sqlite.inTransaction && !inside.getStore()) {
      throw new Error("comando fora da transação aberta na mesma conexão SQLite");
    }
    return prepare(source);
  }) as typeof sqlite.prepare;
  // Every drizzle over this connection queues on the one `tail`.
  const bind = (db: Db) => {
    db.transaction = (async (work: (tx: Tx) => Promise<unknown>) => {
      if (inside.getStore()) return work(db as unknown as Tx);
      const turn = tail.then(() =>
        inside.run(true, async () => {
          sqlite.exec("BEGIN IMMEDIATE");
          try {
            const result = await work(db as unknown as Tx);
            sqlite.exec("COMMIT");
            return result;
          } catch (error) {
            if (sqlite.inTransaction) sqlite.exec("ROLLBACK");
            throw error;
          }
        }),
      );
      tail = turn.catch(() => undefined);
      return turn;
    }) as Db["transaction"];
  };
  return { owning: (work) => inside.run(true, work), bind };
}

/**
 * SQLite's page cache per connection, in KiB (allocated as pages are read, up to this). SQLite's default is
 * 2 MB: with Insights' aggregates (~370 MB at 100,000 people × 400 days) each flush's pages pushed the session
 * and permission tables' pages out, and the next lookups read them again. 32 MB: gate CPU per page with
 * counting on / off 1.044–1.072× → 1.026–1.029× (median of 3 processes, two runs each; `npm run bench -- --insights`).
 */
export const SQLITE_CACHE_KIB = 32 * 1024;

function connectSqlite(file: string, options: { readonly?: boolean } = {}): Db {
  if (!options.readonly && file !== ":memory:") fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = options.readonly ? new Database(file, { readonly: true, fileMustExist: true }) : new Database(file);
  sqlite.pragma("busy_timeout = 5000");
  sqlite.pragma(`cache_size = -${SQLITE_CACHE_KIB}`);
  if (!options.readonly) {
    sqlite.pragma("journal_mode = WAL");
    sqlite.pragma("foreign_keys = ON");
    sqlite.pragma("synchronous = NORMAL");
    // Deleted rows are zeroed in their pages (without extra writes): a key salt past its period, the hashes of a
    // query's searchers, a rate-limit row leave nothing for a later copy of the file to read (issue 62).
    sqlite.pragma("secure_delete = FAST");
  }
  const db = drizzleSqlite(sqlite, { schema: sqliteSchema }) as unknown as Db;
  const { owning, bind } = sqliteTransactions(sqlite);
  bind(db);
  setHandle(db, { engine: "sqlite", sqlite, owning, bindTransactions: bind });
  return db;
}

// PostgreSQL `bigint` (int8) and `count(*)` arrive as strings by default; every one the portal
// stores is a millisecond time or a count, well inside a JS number.
pg.types.setTypeParser(pg.types.builtins.INT8, (value: string) => Number(value));

/**
 * PostgreSQL transactions on a client of their own, given back to the pool in every case: drizzle's
 * pool transaction leaks its client when BEGIN fails and returns a client that failed mid-query
 * (a hung server's timeout) to the pool, where the next request would wait behind it. A client
 * that failed because the database went away is discarded instead.
 */
function postgresTransactions(db: Db, pool: pg.Pool): void {
  const onClient = new WeakMap<pg.PoolClient, Db>();
  db.transaction = (async (work, config) => {
    const client = await pool.connect();
    let broken: Error | undefined;
    try {
      let clientDb = onClient.get(client);
      if (!clientDb) onClient.set(client, (clientDb = drizzlePg(client, { schema: pgSchema }) as unknown as Db));
      return await clientDb.transaction(work, config);
    } catch (error) {
      if (isDatabaseUnavailable(error)) broken = error as Error;
      throw error;
    } finally {
      client.release(broken);
    }
  }) as Db["transaction"];
}

/** Bounds on every wait for PostgreSQL, so a hung server costs a request a 503, not forever. */
export interface WaitLimits {
  /** Getting a connection: a free one from the pool or a new one from the server. */
  connectMs: number;
  /** One statement (server-side `statement_timeout`, and client-side for a server that stopped answering). */
  statementMs: number;
}

function connectPostgres(url: string, limits?: WaitLimits, poolMax?: number): Db {
  const pool = new pg.Pool({
    connectionString: url,
    max: poolMax ?? (Number(readSetting("DATABASE_POOL_MAX") ?? 10) || 10),
    application_name: "b1-method-hub",
    ...(limits && {
      connectionTimeoutMillis: limits.connectMs,
      statement_timeout: limits.statementMs,
      query_timeout: limits.statementMs,
    }),
  });
  // A client that loses its server (restart, failover, pg_terminate_backend) emits 'error'; with
  // no listener that ends the process. The pool listens while a client is idle only, so every
  // client gets one for its whole life; the query in flight fails on its own and the pool drops
  // the client.
  pool.on("error", () => undefined);
  pool.on("connect", (client) => client.on("error", () => undefined));
  const db = drizzlePg(pool, { schema: pgSchema }) as unknown as Db;
  postgresTransactions(db, pool);
  setHandle(db, { engine: "postgres", pool, url, bindTransactions: (view) => postgresTransactions(view, pool) });
  return db;
}

/**
 * Connects to `target` (a SQLite file path, `:memory:`, or a postgres:// URL) without migrating.
 * SQLite gets WAL, foreign keys and a busy timeout; PostgreSQL a pool (`DATABASE_POOL_MAX`), with
 * `limits` on its waits when given (the server's; scripts run without) and `poolMax` connections
 * at most when given (a worker thread's own pool).
 */
export function connectDatabase(target: string, limits?: WaitLimits, options: { poolMax?: number } = {}): Db {
  return engineOf(target) === "postgres" ? connectPostgres(target, limits, options.poolMax) : connectSqlite(target);
}

const MIGRATION_LOCK = 4_010_000;

/**
 * drizzle's PostgreSQL migrator (same `drizzle.__drizzle_migrations` table, same rule: every
 * migration newer than the newest applied, in one transaction), with the lock taken inside that
 * transaction (`pg_advisory_xact_lock`): through PgBouncer in transaction pooling a session lock
 * would stay on whichever server connection took it, held after this client is gone, and the next
 * instance to start would wait for it forever. `statement_timeout` 0 for this transaction only:
 * a role-level timeout (set for PgBouncer, docs/implantacao.md) must not cut an index build short.
 */
async function migratePgLocked(client: pg.Client): Promise<void> {
  const migrations = readMigrationFiles({ migrationsFolder: PG_MIGRATIONS_DIR });
  await client.query("begin");
  try {
    await client.query("select pg_advisory_xact_lock($1)", [MIGRATION_LOCK]);
    await client.query("set local statement_timeout = 0");
    await client.query('create schema if not exists "drizzle"');
    await client.query(
      'create table if not exists "drizzle"."__drizzle_migrations" (id serial primary key, hash text not null, created_at bigint)',
    );
    const { rows } = await client.query<{ created_at: number | null }>(
      'select created_at from "drizzle"."__drizzle_migrations" order by created_at desc limit 1',
    );
    const newest = rows[0]?.created_at ?? null;
    for (const migration of migrations) {
      if (newest !== null && Number(newest) >= migration.folderMillis) continue;
      for (const statement of migration.sql) await client.query(statement);
      await client.query('insert into "drizzle"."__drizzle_migrations" ("hash", "created_at") values ($1, $2)', [
        migration.hash,
        migration.folderMillis,
      ]);
    }
    await client.query("commit");
  } catch (error) {
    await client.query("rollback").catch(() => undefined);
    throw error;
  }
}

/** Applies the engine's migrations (db/migrations or db/migrations-pg); safe to run at every start. */
export async function migrateDatabase(db: Db): Promise<void> {
  const handle = handleOf(db);
  if (handle.engine === "sqlite") {
    handle.owning!(() => migrateSqlite(db as never, { migrationsFolder: MIGRATIONS_DIR }));
  } else {
    // A connection of its own, without the pool's statement timeout: building an index on a big
    // table may take longer than a request may. Instances starting together take turns on its
    // lock: the second finds the first's migrations applied.
    const client = new pg.Client({ connectionString: handle.url, application_name: "b1-method-hub" });
    client.on("error", () => undefined);
    await client.connect();
    try {
      await migratePgLocked(client);
    } finally {
      await client.end().catch(() => undefined);
    }
  }
}

/** Connects and, when asked, migrates; seeding is the start-up's job (seed.ts). */
export async function openDatabase(target: string, options: { migrate?: boolean } = {}): Promise<Db> {
  const db = connectDatabase(target);
  if (options.migrate) await migrateDatabase(db);
  return db;
}

/**
 * A second, read-only connection to an existing SQLite database (worker threads): WAL lets it
 * read while the server writes, and SQLite itself refuses any write through it.
 */
export function openReadOnlyDatabase(file: string): Db {
  return connectSqlite(file, { readonly: true });
}

/**
 * Runs `work` on one consistent snapshot of the database without blocking writers, even across
 * its own pauses: PostgreSQL, a read-only REPEATABLE READ transaction; SQLite, a read transaction
 * on a second read-only connection (WAL), so the shared connection stays free for requests.
 * An in-memory SQLite database has no second connection: `work` reads it directly.
 */
export async function readSnapshot<T>(db: Db, work: (reader: Db) => Promise<T>): Promise<T> {
  const handle = handleOf(db);
  if (handle.pool) {
    return db.transaction((tx) => work(tx as unknown as Db), { isolationLevel: "repeatable read", accessMode: "read only" });
  }
  const sqlite = handle.sqlite!;
  if (sqlite.memory) return work(db);
  const reader = openReadOnlyDatabase(sqlite.name);
  const { sqlite: readerSqlite, owning } = handleOf(reader);
  try {
    return await owning!(async () => {
      readerSqlite!.exec("BEGIN");
      try {
        return await work(reader);
      } finally {
        readerSqlite!.exec("COMMIT");
      }
    });
  } finally {
    await closeDatabase(reader);
  }
}

/** Closes the connection (SQLite) or ends the pool (PostgreSQL). */
export async function closeDatabase(db: Db): Promise<void> {
  const handle = handleOf(db);
  if (handle.sqlite) handle.sqlite.close();
  if (handle.pool) await handle.pool.end();
}

const SHARED = Symbol.for("b1.db.shared");
type Shared = { [SHARED]?: Db };
/** This copy's drizzle over the shared connection (see getDb). */
let local: Db | undefined;

/**
 * A drizzle of this module's copy over `shared`'s connection or pool, with the same transactions.
 * drizzle maps each result row by asking of every selected column whether it is one of its own
 * classes: a column of the other bundle's copy fails `instanceof` and is matched by walking its class
 * chain instead, for every row and column (the Insights report of 365 days over HTTP: 60–83 ms of the
 * gate's CPU a request with the other copy's drizzle, 46–65 ms with its own).
 */
function localView(shared: Db): Db {
  const handle = handleOf(shared);
  const view = (
    handle.sqlite ? drizzleSqlite(handle.sqlite, { schema: sqliteSchema }) : drizzlePg(handle.pool!, { schema: pgSchema })
  ) as unknown as Db;
  handle.bindTransactions(view);
  setHandle(view, handle);
  return view;
}

/**
 * The process-wide database, connected on first use (never at build time), one per process: the
 * gate and the Astro server (two bundles, two copies of this module and of drizzle) use the same
 * connection or pool, so SQLite's transactions queue in one place, each through its own copy's
 * drizzle (localView). SQLite is migrated here (synchronously); PostgreSQL by the start-up
 * (main.ts) or `db:migrate`.
 */
export function getDb(): Db {
  const holder = globalThis as Shared;
  if (!holder[SHARED]) {
    // Getting a connection and running a statement each take at most half the request timeout.
    const halfRequest = Math.ceil(config().requestTimeoutMs / 2);
    const db = connectDatabase(config().databaseUrl, { connectMs: halfRequest, statementMs: halfRequest });
    handleOf(db).owning?.(() => migrateSqlite(db as never, { migrationsFolder: MIGRATIONS_DIR }));
    holder[SHARED] = local = db;
  }
  const shared = holder[SHARED];
  if (!local || handleOf(local) !== handleOf(shared)) local = localView(shared);
  return local;
}

export { pgSchema, sqliteSchema };

/** The process-wide database, migrated on either engine (entry points: the server, the CLI scripts). */
export async function getMigratedDb(): Promise<Db> {
  const db = getDb();
  if (engineOfDb(db) === "postgres") await migrateDatabase(db);
  return db;
}
