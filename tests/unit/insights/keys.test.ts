/**
 * Insights' keys: one per name and database, created once, the same on every read of that database;
 * each derived from INSIGHTS_KEY and the salt stored there, never the stored value itself (issue 62).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insightsKeys } from "../../../db/schema/index";
import { closeDatabase, type Db } from "../../../src/lib/server/data/db";
import { createHmac } from "node:crypto";
import { forgetInsightsKey, insightsKey, setInsightsMasterKey, weekKeyName } from "../../../src/lib/server/insights/keys";
import { openOwnTestDatabase } from "../../support/users";

let dir: string;
let first: Db;
let second: Db;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "b1-insights-keys-"));
  first = (await openOwnTestDatabase(path.join(dir, "first.sqlite"))).db;
  second = (await openOwnTestDatabase(path.join(dir, "second.sqlite"))).db;
});
afterAll(async () => {
  await closeDatabase(first);
  await closeDatabase(second);
  fs.rmSync(dir, { recursive: true, force: true });
});

async function stored(db: Db, name: string): Promise<string | undefined> {
  const [row] = await db.select({ secret: insightsKeys.secret }).from(insightsKeys).where(eq(insightsKeys.name, name));
  return row?.secret;
}

/** The key INSIGHTS_KEY (the tests' one, vitest.config.ts) and the stored salt give. */
async function derived(db: Db, name: string): Promise<string> {
  const salt = Buffer.from((await stored(db, name))!, "hex");
  return createHmac("sha256", Buffer.from(process.env.INSIGHTS_KEY!, "hex")).update(`${name}\u0000`).update(salt).digest("hex");
}

describe("insights keys", () => {
  it("gives each database its own key of a name, the one stored there, in one process", async () => {
    // The reads test's PostgreSQL pass opens two databases in one process: a cache by name alone gave
    // the second database the first one's week key, and its registers no longer matched that key.
    const name = weekKeyName("2026-W48");
    const a = await insightsKey(first, name);
    const b = await insightsKey(second, name);
    expect(a.toString("hex")).toBe(await derived(first, name));
    expect(b.toString("hex")).toBe(await derived(second, name));
    // The database holds a salt, not the key: alone, it recomputes no pseudonym.
    expect(a.toString("hex")).not.toBe(await stored(first, name));
    expect(a.equals(b)).toBe(false);
    // Read again: the same key (cached or not).
    expect((await insightsKey(first, name)).equals(a)).toBe(true);
    expect((await insightsKey(second, name)).equals(b)).toBe(true);
  });

  it("forgets a deleted key on the database it was deleted from only", async () => {
    const name = weekKeyName("2026-W40");
    const a = await insightsKey(first, name);
    const b = await insightsKey(second, name);
    await first.delete(insightsKeys).where(eq(insightsKeys.name, name));
    forgetInsightsKey(first, name);
    const renewed = await insightsKey(first, name);
    expect(renewed.equals(a)).toBe(false);
    expect(renewed.toString("hex")).toBe(await derived(first, name));
    expect((await insightsKey(second, name)).equals(b)).toBe(true);
  });

  it("another INSIGHTS_KEY gives other keys from the same salts (a backup without the environment recomputes nothing)", async () => {
    const name = weekKeyName("2026-W30");
    const withTestKey = await insightsKey(first, name);
    setInsightsMasterKey(Buffer.alloc(32, 7));
    try {
      const withOther = await insightsKey(first, name);
      expect(withOther.equals(withTestKey)).toBe(false);
    } finally {
      setInsightsMasterKey(null);
    }
    expect((await insightsKey(first, name)).equals(withTestKey)).toBe(true);
  });
});
