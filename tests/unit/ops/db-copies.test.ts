/**
 * The gate and the Astro server are two bundles, each with its own copy of db.ts and of drizzle, over one
 * shared connection (SQLite) or pool (PostgreSQL). The copy that did not open it gets a drizzle of its own
 * over the same connection: a drizzle maps result rows quickly only for columns of its own copy's classes
 * (the Insights report over HTTP spent ~26 ms a request matching the other copy's). Here this file's copy
 * stands for the Astro server's, and a database it connects itself stands for the gate's.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insightsKeys } from "../../../db/schema/index";
import { closeDatabase, connectDatabase, getDb, pgPool, sqliteClient, type Db } from "../../../src/lib/server/data/db";
import { onPostgres } from "../../support/pg";
import { openOwnTestDatabase } from "../../support/users";

const SHARED = Symbol.for("b1.db.shared");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "b1-db-copies-"));
let gates: Db;
let mine: Db;

beforeAll(async () => {
  const opened = await openOwnTestDatabase(path.join(dir, "db.sqlite"));
  await closeDatabase(opened.db);
  gates = connectDatabase(opened.target);
  (globalThis as Record<symbol, unknown>)[SHARED] = gates;
  mine = getDb();
});
afterAll(async () => {
  delete (globalThis as Record<symbol, unknown>)[SHARED];
  await closeDatabase(gates);
  fs.rmSync(dir, { recursive: true, force: true });
});

const secretOf = async (db: Db, name: string) =>
  (await db.select({ secret: insightsKeys.secret }).from(insightsKeys).where(eq(insightsKeys.name, name)))[0]?.secret;

describe("getDb in the copy that did not open the database", () => {
  it("is a drizzle of its own over the same connection or pool, the same one on every call", async () => {
    expect(mine).not.toBe(gates);
    expect(getDb()).toBe(mine);
    if (onPostgres) expect(pgPool(mine)).toBe(pgPool(gates));
    else expect(sqliteClient(mine)).toBe(sqliteClient(gates));
    await mine.insert(insightsKeys).values({ name: "copia", secret: "ab" });
    expect(await secretOf(gates, "copia")).toBe("ab");
  });

  it("commits and rolls back its own transactions", async () => {
    await mine.transaction(async (tx) => {
      await tx.insert(insightsKeys).values({ name: "confirmada", secret: "01" });
    });
    await expect(
      mine.transaction(async (tx) => {
        await tx.insert(insightsKeys).values({ name: "desfeita", secret: "02" });
        throw new Error("desfaz");
      }),
    ).rejects.toThrow("desfaz");
    expect(await secretOf(gates, "confirmada")).toBe("01");
    expect(await secretOf(gates, "desfeita")).toBeUndefined();
  });

  it.skipIf(onPostgres)(
    "SQLite: queues its transactions behind the other copy's on the one connection, which refuses a stray statement",
    async () => {
      const order: string[] = [];
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let opened!: () => void;
      const open = new Promise<void>((resolve) => (opened = resolve));
      const first = gates.transaction(async (tx) => {
        await tx.insert(insightsKeys).values({ name: "primeira", secret: "03" });
        opened();
        await held;
        order.push("primeira");
      });
      await open;
      const second = mine.transaction(async (tx) => {
        order.push("segunda");
        await tx.insert(insightsKeys).values({ name: "segunda", secret: "04" });
      });
      // A statement of this copy outside any transaction, while the other copy's is open on the connection.
      await expect(secretOf(mine, "primeira")).rejects.toThrow("comando fora da transação");
      release();
      await Promise.all([first, second]);
      expect(order).toEqual(["primeira", "segunda"]);
      expect(await secretOf(mine, "segunda")).toBe("04");
    },
  );
});
