/**
 * provisioned_count (migrations 0019 / 0016) answers SCIM's unfiltered `totalResults` without
 * counting every provisioned row: its slots must add up to that count after every kind of write
 * to users — created by the directory or by hand, taken over, released, deleted one by one or by
 * a cascade-free bulk delete — and, on PostgreSQL, after creates from many connections at once.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { count, eq, inArray, isNotNull, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { provisionedCount, users } from "../../../db/schema/index";
import { closeDatabase, type Db } from "../../../src/lib/server/data/db";
import { onPostgres } from "../../support/pg";
import { openOwnTestDatabase } from "../../support/users";

let serial = 0;
const account = (provisioned: boolean) => {
  serial += 1;
  return {
    id: `conta-${serial}`,
    email: `conta.${serial}@b1.example.com`,
    fullName: `Conta ${serial}`,
    passwordHash: "!",
    createdAt: Date.now(),
    provisionedAt: provisioned ? Date.now() : null,
  };
};

async function slotsAndCount(db: Db) {
  const [slots] = await db
    .select({ total: sql<number>`coalesce(sum(${provisionedCount.people}), 0)`.mapWith(Number) })
    .from(provisionedCount);
  const [rows] = await db.select({ total: count() }).from(users).where(isNotNull(users.provisionedAt));
  return { slots: slots!.total, rows: Number(rows!.total) };
}

describe("the count of accounts the directory manages", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "b1-provisioned-count-"));
  let db: Db;
  beforeAll(async () => {
    ({ db } = await openOwnTestDatabase(path.join(dir, "db.sqlite")));
  });
  afterAll(async () => {
    await closeDatabase(db);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("follows creates, takeovers, releases and deletes, whoever writes them", async () => {
    const made = [account(true), account(true), account(false), account(false), account(true)];
    await db.insert(users).values(made);
    expect(await slotsAndCount(db)).toEqual({ slots: 3, rows: 3 });
    // A hand-made account taken over by the directory, and one released from it.
    await db.update(users).set({ provisionedAt: Date.now() }).where(eq(users.id, made[2]!.id));
    await db.update(users).set({ provisionedAt: null }).where(eq(users.id, made[0]!.id));
    // A change that keeps the account managed (a new date) moves nothing.
    await db
      .update(users)
      .set({ provisionedAt: Date.now() + 1, fullName: "Outro nome" })
      .where(eq(users.id, made[1]!.id));
    expect(await slotsAndCount(db)).toEqual({ slots: 3, rows: 3 });
    await db.delete(users).where(inArray(users.id, [made[1]!.id, made[3]!.id]));
    expect(await slotsAndCount(db)).toEqual({ slots: 2, rows: 2 });
  });

  it.skipIf(!onPostgres)("adds up exactly after 200 creates from 10 connections at once (PostgreSQL slots)", async () => {
    const before = await slotsAndCount(db);
    await Promise.all(
      Array.from({ length: 10 }, () =>
        (async () => {
          for (let i = 0; i < 20; i++) await db.transaction(async (tx) => void (await tx.insert(users).values([account(true)])));
        })(),
      ),
    );
    const after = await slotsAndCount(db);
    expect(after.rows).toBe(before.rows + 200);
    expect(after.slots).toBe(after.rows);
    const [used] = await db.select({ slots: count() }).from(provisionedCount);
    expect(Number(used!.slots)).toBeGreaterThan(1);
  });
});
