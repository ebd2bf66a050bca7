import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { drizzle, type BetterSQLite3Database } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import * as schema from "../../../db/schema/index.ts";
import { config } from "./config.ts";

export type Db = BetterSQLite3Database<typeof schema> & { $client: Database.Database };
/** The handle inside `db.transaction(...)`: writes through it commit or roll back together. */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

export const MIGRATIONS_DIR = path.resolve(process.env.MIGRATIONS_DIR ?? "db/migrations");

/** Opens (creating if needed) the SQLite file with WAL and foreign keys on; seeding is the start-up's job (seed.ts). */
export function openDatabase(file: string, options: { migrate?: boolean } = {}): Db {
  if (file !== ":memory:") fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new Database(file);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("busy_timeout = 5000");
  sqlite.pragma("synchronous = NORMAL");
  const db = drizzle(sqlite, { schema }) as Db;
  // A deferred transaction that reads and then writes cannot wait for another connection's
  // commit (SQLite answers SQLITE_BUSY at once, busy_timeout or not); IMMEDIATE takes the write
  // lock first, so the CLI and the server queue behind each other instead.
  const deferred = db.transaction.bind(db);
  db.transaction = ((transaction, config) => deferred(transaction, { behavior: "immediate", ...config })) as typeof db.transaction;
  if (options.migrate) {
    migrate(db, { migrationsFolder: MIGRATIONS_DIR });
  }
  return db;
}

/**
 * A second, read-only connection to an existing database (worker threads): WAL lets it read
 * while the server writes, and SQLite itself refuses any write through it.
 */
export function openReadOnlyDatabase(file: string): Db {
  const sqlite = new Database(file, { readonly: true, fileMustExist: true });
  sqlite.pragma("busy_timeout = 5000");
  return drizzle(sqlite, { schema }) as Db;
}

let shared: Db | undefined;

/** The process-wide connection, opened on first use (never at build time). */
export function getDb(): Db {
  shared ??= openDatabase(config().databasePath, { migrate: true });
  return shared;
}

export { schema };
