import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { drizzle, type BetterSQLite3Database } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import * as schema from "../../../db/schema/index.ts";
import { config } from "./config.ts";

export type Db = BetterSQLite3Database<typeof schema> & { $client: Database.Database };

const MIGRATIONS_DIR = path.resolve(process.env.MIGRATIONS_DIR ?? "db/migrations");

/** Opens (creating if needed) the SQLite file with WAL and foreign keys on; seeding is the start-up's job (seed.ts). */
export function openDatabase(file: string, options: { migrate?: boolean } = {}): Db {
  if (file !== ":memory:") fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new Database(file);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("busy_timeout = 5000");
  sqlite.pragma("synchronous = NORMAL");
  const db = drizzle(sqlite, { schema }) as Db;
  if (options.migrate) {
    migrate(db, { migrationsFolder: MIGRATIONS_DIR });
  }
  return db;
}

let shared: Db | undefined;

/** The process-wide connection, opened on first use (never at build time). */
export function getDb(): Db {
  shared ??= openDatabase(config().databasePath, { migrate: true });
  return shared;
}

export { schema };
