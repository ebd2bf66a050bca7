import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDatabase, openDatabase, pgPool, pgSchema, sqliteClient, type Db } from "../../../src/lib/server/data/db";
import { createDatabase } from "../../support/pg";

// The two engines' migrations are written by drizzle-kit from two schema files; this checks what
// they actually build, on real servers, so a migration edited or forgotten on one side shows here.

interface TableShape {
  columns: { name: string; notNull: boolean; primaryKey: boolean; hasDefault: boolean }[];
  indexes: { name: string; unique: boolean; columns: string[] }[];
}
type Shapes = Record<string, TableShape>;

/**
 * Tables that exist on one engine by design: drizzle's journal, the PostgreSQL-only counters (sessions cache, reading totals),
 * and the user search's index, which is a trigram table (with its shadow tables) on SQLite and a
 * trigram index (users_search_trgm_idx) on PostgreSQL.
 */
const ENGINE_OWN = /^(__drizzle_migrations|cache_version|reading_tally_version|sqlite_.*|users_search(_.*)?)$/;

const byName = <T extends { name: string }>(items: T[]) => items.sort((a, b) => a.name.localeCompare(b.name));

function sqliteShapes(sqlite: Database.Database): Shapes {
  const shapes: Shapes = {};
  const tables = sqlite.prepare("select name from pragma_table_list where schema = 'main' and type = 'table'").all() as { name: string }[];
  for (const { name } of tables) {
    if (ENGINE_OWN.test(name)) continue;
    const columns = sqlite.prepare("select * from pragma_table_info(?)").all(name) as {
      name: string;
      type: string;
      notnull: number;
      pk: number;
      dflt_value: string | null;
    }[];
    const singleIntegerKey = columns.filter((column) => column.pk > 0).length === 1;
    const indexes = (sqlite.prepare("select * from pragma_index_list(?)").all(name) as { name: string; unique: number; origin: string }[])
      // origin 'c': created by CREATE INDEX; the others are the primary key's own.
      .filter((index) => index.origin === "c")
      .map((index) => ({
        name: index.name,
        unique: index.unique === 1,
        columns: (sqlite.prepare("select name from pragma_index_info(?) order by seqno").all(index.name) as { name: string }[]).map(
          (column) => column.name,
        ),
      }));
    shapes[name] = {
      columns: byName(
        columns.map((column) => ({
          name: column.name,
          // A primary key is NOT NULL on PostgreSQL whatever the declaration says.
          notNull: column.notnull === 1 || column.pk > 0,
          primaryKey: column.pk > 0,
          // INTEGER PRIMARY KEY numbers itself, as an identity column does.
          hasDefault: column.dflt_value !== null || (singleIntegerKey && column.pk > 0 && column.type.toUpperCase() === "INTEGER"),
        })),
      ),
      indexes: byName(indexes),
    };
  }
  return shapes;
}

async function pgShapes(db: Db): Promise<Shapes> {
  const pool = pgPool(db)!;
  const columns = await pool.query<{
    table_name: string;
    column_name: string;
    is_nullable: string;
    column_default: string | null;
    is_identity: string;
  }>(
    "select table_name, column_name, is_nullable, column_default, is_identity from information_schema.columns where table_schema = 'public'",
  );
  const keys = await pool.query<{ table_name: string; column_name: string; constraint_name: string }>(
    `select k.table_name, k.column_name, k.constraint_name from information_schema.key_column_usage k
       join information_schema.table_constraints c on c.constraint_name = k.constraint_name and c.table_schema = k.table_schema
      where c.constraint_type = 'PRIMARY KEY' and k.table_schema = 'public'`,
  );
  const indexes = await pool.query<{ tablename: string; indexname: string; indexdef: string }>(
    "select tablename, indexname, indexdef from pg_indexes where schemaname = 'public'",
  );
  const keyColumns = new Set(keys.rows.map((key) => `${key.table_name}.${key.column_name}`));
  const keyIndexes = new Set(keys.rows.map((key) => key.constraint_name));
  const shapes: Shapes = {};
  for (const column of columns.rows) {
    if (ENGINE_OWN.test(column.table_name)) continue;
    const shape = (shapes[column.table_name] ??= { columns: [], indexes: [] });
    shape.columns.push({
      name: column.column_name,
      notNull: column.is_nullable === "NO",
      primaryKey: keyColumns.has(`${column.table_name}.${column.column_name}`),
      hasDefault: column.column_default !== null || column.is_identity === "YES",
    });
  }
  for (const index of indexes.rows) {
    if (ENGINE_OWN.test(index.tablename) || ENGINE_OWN.test(index.indexname) || keyIndexes.has(index.indexname)) continue;
    // The column list after `USING <method>` (a partial index ends with its WHERE, not its columns).
    const columnList = /USING \w+ \(([^)]*)\)/.exec(index.indexdef)![1]!;
    shapes[index.tablename]!.indexes.push({
      name: index.indexname,
      unique: /^CREATE UNIQUE INDEX/.test(index.indexdef),
      columns: columnList.split(",").map((column) => column.trim().replace(/^"|"$/g, "")),
    });
  }
  for (const shape of Object.values(shapes)) {
    byName(shape.columns);
    byName(shape.indexes);
  }
  return shapes;
}

async function cacheVersion(db: Db): Promise<number> {
  const result = await pgPool(db)!.query<{ version: string }>("select sum(version) as version from cache_version");
  return Number(result.rows[0]!.version);
}

describe.skipIf(!process.env.TEST_PG_URL)("PostgreSQL migrations", () => {
  let dir: string;
  let sqliteDb: Db;
  let pgUrl: string;
  let pgDb: Db;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "b1-pg-migrations-"));
    sqliteDb = await openDatabase(path.join(dir, "db.sqlite"), { migrate: true });
    pgUrl = await createDatabase(process.env.TEST_PG_URL!);
    pgDb = await openDatabase(pgUrl, { migrate: true });
  });

  afterAll(async () => {
    if (sqliteDb) await closeDatabase(sqliteDb);
    if (pgDb) await closeDatabase(pgDb);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("build the same tables, columns and indexes as the SQLite migrations", async () => {
    const sqlite = sqliteShapes(sqliteClient(sqliteDb)!);
    const pg = await pgShapes(pgDb);
    expect(Object.keys(sqlite).length).toBeGreaterThan(10);
    expect(Object.keys(pg).sort()).toEqual(Object.keys(sqlite).sort());
    for (const table of Object.keys(sqlite)) {
      expect(pg[table]!.columns, `colunas de ${table}`).toEqual(sqlite[table]!.columns);
      expect(pg[table]!.indexes, `índices de ${table}`).toEqual(sqlite[table]!.indexes);
    }
  });

  it("are idempotent: migrating again changes nothing", async () => {
    const before = await pgShapes(pgDb);
    const again = await openDatabase(pgUrl, { migrate: true });
    await closeDatabase(again);
    expect(await pgShapes(pgDb)).toEqual(before);
  });

  it("bump the cache version on a committed session write, not on an audit row or a rolled-back write", async () => {
    const userId = `u-${Date.now()}`;
    await pgDb.insert(pgSchema.users).values({ id: userId, email: `${userId}@b1.example.com`, passwordHash: "x" });

    const beforeSession = await cacheVersion(pgDb);
    const now = Date.now();
    await pgDb
      .insert(pgSchema.sessions)
      .values({ id: `s-${userId}`, secretHash: "h", userId, lastVerifiedAt: now, expiresAt: now + 60_000 });
    const afterSession = await cacheVersion(pgDb);
    expect(afterSession).toBeGreaterThan(beforeSession);

    await pgDb.insert(pgSchema.auditLogs).values({ actionType: "login", result: "success", userId });
    expect(await cacheVersion(pgDb)).toBe(afterSession);

    await expect(
      pgDb.transaction(async (tx) => {
        await tx
          .insert(pgSchema.sessions)
          .values({ id: `s2-${userId}`, secretHash: "h", userId, lastVerifiedAt: now, expiresAt: now + 60_000 });
        throw new Error("desfeita");
      }),
    ).rejects.toThrow("desfeita");
    expect(await cacheVersion(pgDb)).toBe(afterSession);
  });
});
