import { getTableName, is, type Column } from "drizzle-orm";
import { PgTable, getTableConfig as pgTableConfig } from "drizzle-orm/pg-core";
import { SQLiteTable, getTableConfig as sqliteTableConfig } from "drizzle-orm/sqlite-core";
import { describe, expect, it } from "vitest";
import * as pgSchema from "../../../db/schema/pg/index.ts";
import * as sqliteSchema from "../../../db/schema/sqlite/all.ts";

// The portal's code is written once against both schemas: a column, index or key on one engine
// only is a bug that shows up only on that engine, so the two definitions must describe one shape.

const columnShape = (column: Column) => ({
  name: column.name,
  dataType: column.dataType,
  notNull: column.notNull,
  primary: column.primary,
  // SQLite autoincrement and PostgreSQL identity both count as a default.
  hasDefault: column.hasDefault,
  enumValues: column.enumValues ?? null,
});
const names = (columns: readonly { name: string }[]) => columns.map((column) => column.name);

type TableConfig = ReturnType<typeof sqliteTableConfig> | ReturnType<typeof pgTableConfig>;

function shapeOf(config: TableConfig) {
  return {
    columns: config.columns.map(columnShape).sort((a, b) => a.name.localeCompare(b.name)),
    indexes: config.indexes
      .map((index) => ({
        name: index.config.name,
        unique: index.config.unique,
        columns: names(index.config.columns as { name: string }[]),
      }))
      .sort((a, b) => String(a.name).localeCompare(String(b.name))),
    primaryKeys: config.primaryKeys.map((key) => ({ name: key.getName(), columns: names(key.columns) })),
    foreignKeys: config.foreignKeys
      .map((key) => {
        const reference = key.reference();
        return {
          name: key.getName(),
          columns: names(reference.columns),
          foreignTable: getTableName(reference.foreignTable),
          foreignColumns: names(reference.foreignColumns),
          onDelete: key.onDelete ?? "no action",
          onUpdate: key.onUpdate ?? "no action",
        };
      })
      .sort((a, b) => a.name.localeCompare(b.name)),
  };
}

const sqliteTables = new Map(
  Object.values(sqliteSchema)
    .flatMap((value): SQLiteTable[] => (is(value, SQLiteTable) ? [value] : []))
    .map((table) => [getTableName(table), sqliteTableConfig(table)] as const),
);
const pgTables = new Map(
  Object.values(pgSchema)
    .flatMap((value): PgTable[] => (is(value, PgTable) ? [value] : []))
    .map((table) => [getTableName(table), pgTableConfig(table)] as const),
);

describe("SQLite and PostgreSQL schemas describe the same tables", () => {
  it("have the same table names", () => {
    expect(sqliteTables.size).toBeGreaterThan(10);
    expect([...pgTables.keys()].sort()).toEqual([...sqliteTables.keys()].sort());
  });

  for (const [name, sqliteConfig] of sqliteTables) {
    it(`${name}: same columns, indexes, primary and foreign keys`, () => {
      const pgConfig = pgTables.get(name);
      expect(pgConfig, `tabela ${name} ausente no esquema PostgreSQL`).toBeDefined();
      const sqliteShape = shapeOf(sqliteConfig);
      const pgShape = shapeOf(pgConfig!);
      expect(pgShape.columns).toEqual(sqliteShape.columns);
      expect(pgShape.indexes).toEqual(sqliteShape.indexes);
      expect(pgShape.primaryKeys).toEqual(sqliteShape.primaryKeys);
      expect(pgShape.foreignKeys).toEqual(sqliteShape.foreignKeys);
    });
  }
});
