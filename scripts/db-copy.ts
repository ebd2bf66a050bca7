/**
 * `npm run db:copy -- --from sqlite:<arquivo> --to postgres://… [--replace]`: moves a portal's
 * data from its SQLite file to PostgreSQL. The source is read in one read transaction (a
 * consistent snapshot, safe while the server runs); the target is migrated, then every table is
 * written in foreign-key order inside ONE PostgreSQL transaction that also checks the row counts,
 * so the target ends either a full copy or unchanged.
 */
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import Database from "better-sqlite3";
import { asc, getTableName, gt, is, sql, type Column } from "drizzle-orm";
import { drizzle, type BetterSQLite3Database } from "drizzle-orm/better-sqlite3";
import { PgTable, getTableConfig as pgTableConfig } from "drizzle-orm/pg-core";
import { SQLiteTable, getTableConfig as sqliteTableConfig } from "drizzle-orm/sqlite-core";
import { engineOf } from "../db/schema/index.ts";
import { MIGRATIONS_DIR, closeDatabase, openDatabase, pgSchema, sqliteSchema, type Db } from "../src/lib/server/data/db.ts";
import { errorText, printableTarget } from "./db-target.ts";

const BATCH_ROWS = 1_000;

function fail(message: string): never {
  console.error(`Erro: ${message}`);
  process.exit(1);
}

interface TablePair {
  name: string;
  source: SQLiteTable;
  target: PgTable;
}

/**
 * Every table, parents before children. Derived from the schemas rather than listed by hand, so a
 * new table is copied without touching this script (the parity test keeps the two sets equal).
 */
function tablesInForeignKeyOrder(): TablePair[] {
  const sources = new Map<string, SQLiteTable>();
  for (const value of Object.values(sqliteSchema)) if (is(value, SQLiteTable)) sources.set(getTableName(value), value);
  const targets = new Map<string, PgTable>();
  for (const value of Object.values(pgSchema)) if (is(value, PgTable)) targets.set(getTableName(value), value);
  const ordered: TablePair[] = [];
  const visit = (name: string) => {
    if (ordered.some((pair) => pair.name === name)) return;
    const target = targets.get(name)!;
    for (const key of pgTableConfig(target).foreignKeys) {
      const parent = getTableName(key.reference().foreignTable);
      if (parent !== name) visit(parent);
    }
    const source = sources.get(name);
    if (!source) fail(`a tabela ${name} existe no esquema PostgreSQL e não no SQLite`);
    ordered.push({ name, source, target });
  };
  for (const name of [...targets.keys()].sort()) visit(name);
  return ordered;
}

function primaryKeyOf(table: SQLiteTable): Column[] {
  const config = sqliteTableConfig(table);
  const single = config.columns.filter((column) => column.primary);
  return single.length > 0 ? single : (config.primaryKeys[0]?.columns ?? config.columns);
}

/** The source's rows in batches, in primary-key order (keyset paging when the key is one column). */
function* sourceBatches(source: BetterSQLite3Database<typeof sqliteSchema>, table: SQLiteTable) {
  const key = primaryKeyOf(table);
  if (key.length === 1) {
    const [column] = key as [Column];
    let last: unknown;
    for (;;) {
      const query = source.select().from(table);
      const rows = (last === undefined ? query : query.where(gt(column, last))).orderBy(asc(column)).limit(BATCH_ROWS).all();
      if (rows.length === 0) return;
      yield rows as Record<string, unknown>[];
      last = (rows.at(-1) as Record<string, unknown>)[keyOf(table, column)];
    }
  }
  for (let offset = 0; ; offset += BATCH_ROWS) {
    const rows = source
      .select()
      .from(table)
      .orderBy(...key.map((column) => asc(column)))
      .limit(BATCH_ROWS)
      .offset(offset)
      .all();
    if (rows.length === 0) return;
    yield rows as Record<string, unknown>[];
  }
}

/** The property name drizzle gives a column in the rows it returns. */
function keyOf(table: SQLiteTable, column: Column): string {
  return Object.entries(table).find(([, value]) => value === column)![0];
}

/** Opens the SQLite file read-only and refuses one whose schema is older than this version's. */
function openSource(file: string) {
  if (!fs.existsSync(file)) fail(`arquivo SQLite não encontrado: ${file}`);
  const sqlite = new Database(file, { readonly: true, fileMustExist: true });
  sqlite.pragma("busy_timeout = 5000");
  const journal = JSON.parse(fs.readFileSync(path.join(MIGRATIONS_DIR, "meta", "_journal.json"), "utf8")) as { entries: unknown[] };
  let applied: number;
  try {
    applied = (sqlite.prepare("select count(*) as n from __drizzle_migrations").get() as { n: number }).n;
  } catch {
    sqlite.close();
    fail(`${file} não é um banco do portal (sem o registro de migrações)`);
  }
  if (applied < journal.entries.length) {
    sqlite.close();
    fail(
      `${file} está numa versão antiga do esquema (${applied} de ${journal.entries.length} migrações); ` +
        `inicie o portal uma vez com ele ou rode DATABASE_PATH=${file} npm run db:migrate, e copie de novo`,
    );
  }
  return { sqlite, db: drizzle(sqlite, { schema: sqliteSchema }) };
}

function printCounts(rows: { name: string; source: number; target: number }[]): void {
  const width = Math.max(6, ...rows.map((row) => row.name.length));
  console.log(`${"Tabela".padEnd(width)}  ${"SQLite".padStart(9)}  ${"PostgreSQL".padStart(10)}`);
  for (const row of rows) {
    const mark = row.source === row.target ? "" : "  ← diferente";
    console.log(`${row.name.padEnd(width)}  ${String(row.source).padStart(9)}  ${String(row.target).padStart(10)}${mark}`);
  }
}

/** A copy that must not happen or did not match: its message is the whole story, no stack. */
class CopyRefused extends Error {}

const { values } = (() => {
  try {
    return parseArgs({ options: { from: { type: "string" }, to: { type: "string" }, replace: { type: "boolean", default: false } } });
  } catch (error) {
    return fail(`${errorText(error)}\nuso: npm run db:copy -- --from sqlite:<arquivo> --to postgres://… [--replace]`);
  }
})();
if (!values.from || !values.to) fail("uso: npm run db:copy -- --from sqlite:<arquivo> --to postgres://… [--replace]");
const sourceFile = path.resolve(values.from.replace(/^sqlite:/, ""));
if (engineOf(values.to) !== "postgres") fail(`o destino precisa ser um endereço postgres://, não ${values.to}`);
const shownTarget = printableTarget(values.to);

const pairs = tablesInForeignKeyOrder();
const source = openSource(sourceFile);
let target: Db | undefined;
try {
  target = await openDatabase(values.to, { migrate: true });
  // A deferred read transaction: every table is read from the same snapshot, even while a server writes.
  source.sqlite.exec("BEGIN");
  const counts = await target.transaction(async (tx) => {
    const allTables = sql.join(
      pairs.map((pair) => pair.target),
      sql`, `,
    );
    // No instance may write while the target is checked, emptied and filled.
    await tx.execute(sql`lock table ${allTables} in access exclusive mode`);
    const users = await tx.$count(pgSchema.users);
    const auditRows = await tx.$count(pgSchema.auditLogs);
    if ((users > 0 || auditRows > 0) && !values.replace) {
      throw new CopyRefused(
        `o destino ${shownTarget} já tem dados (${users} usuários, ${auditRows} registros de auditoria); nada foi copiado. ` +
          "Use --replace para apagar o destino e copiar de novo.",
      );
    }
    // Also clears what a start or db:migrate seeded (system roles, pages): the source brings its own.
    await tx.execute(sql`truncate table ${allTables} restart identity`);
    // Copied rows keep their SCIM versions and dates, and provisioned_count comes copied: the triggers
    // that keep them (migrations 0012 and 0016) stand aside.
    await tx.execute(sql`select set_config('b1.copying', 'on', true)`);

    const counted: { name: string; source: number; target: number }[] = [];
    for (const pair of pairs) {
      for (const rows of sourceBatches(source.db, pair.source)) await tx.insert(pair.target).values(rows);
      for (const column of pgTableConfig(pair.target).columns) {
        if (!column.generatedIdentity) continue;
        await tx.execute(
          sql`select setval(pg_get_serial_sequence(${pair.name}, ${column.name}), coalesce((select max(${column}) from ${pair.target}), 0) + 1, false)`,
        );
      }
      counted.push({ name: pair.name, source: await source.db.$count(pair.source), target: await tx.$count(pair.target) });
    }
    if (counted.some((row) => row.source !== row.target)) {
      printCounts(counted);
      throw new CopyRefused("as contagens de linhas diferem; nada foi gravado no destino");
    }
    return counted;
  });
  printCounts(counts);
  const total = counts.reduce((sum, row) => sum + row.target, 0);
  console.log(`Cópia concluída: ${total} linhas em ${counts.length} tabelas de ${sourceFile} para ${shownTarget}, contagens conferidas.`);
} catch (error) {
  if (error instanceof CopyRefused) console.error(`Erro: ${error.message}`);
  else console.error(`Erro: a cópia falhou (${errorText(error)}); o destino ${shownTarget} ficou como estava.`);
  process.exitCode = 1;
} finally {
  if (source.sqlite.inTransaction) source.sqlite.exec("ROLLBACK");
  source.sqlite.close();
  if (target) await closeDatabase(target);
}
