/** SQLite's page cache per connection: 32 MB instead of SQLite's 2 MB default (db.ts says why and what it measured). */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { closeDatabase, openDatabase, SQLITE_CACHE_KIB, sqliteClient } from "../../../src/lib/server/data/db";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "b1-sqlite-cache-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("SQLite page cache", () => {
  it("is 32 MB on every connection the portal opens", async () => {
    const db = await openDatabase(path.join(dir, "db.sqlite"));
    expect(SQLITE_CACHE_KIB).toBe(32 * 1024);
    expect(sqliteClient(db)!.pragma("cache_size", { simple: true })).toBe(-SQLITE_CACHE_KIB);
    await closeDatabase(db);
  });
});
