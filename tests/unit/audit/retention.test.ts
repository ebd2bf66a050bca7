import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertAuditRows } from "../../../scripts/bench/scale-data";
import { pruneAuditLogs } from "../../../src/lib/server/audit/retention";
import { readConfig } from "../../../src/lib/server/config/config";
import { count as countRows, lt } from "drizzle-orm";
import { auditLogs } from "../../../db/schema/index";
import { closeDatabase, type Db } from "../../../src/lib/server/data/db";
import { openOwnTestDatabase } from "../../support/users";

const DAY = 24 * 60 * 60 * 1000;
const NOW = Date.UTC(2026, 10, 1);
let dir: string;
let db: Db;

/** Audit rows, or only those created before `before`. */
const count = async (before?: number) =>
  (
    await db
      .select({ n: countRows() })
      .from(auditLogs)
      .where(before === undefined ? undefined : lt(auditLogs.createdAt, before))
  )[0]!.n;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "b1-retention-"));
  db = (await openOwnTestDatabase(path.join(dir, "db.sqlite"))).db;
  await insertAuditRows(db, 3650, [], NOW);
});
afterAll(async () => {
  await closeDatabase(db);
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("audit retention", () => {
  it("keeps everything unless AUDIT_RETENTION_DAYS is set, and refuses a bad value clearly", () => {
    expect(readConfig({}).auditRetentionDays).toBeNull();
    expect(readConfig({ AUDIT_RETENTION_DAYS: "90" }).auditRetentionDays).toBe(90);
    expect(() => readConfig({ AUDIT_RETENTION_DAYS: "noventa" })).toThrow(
      'AUDIT_RETENTION_DAYS deve ser um número inteiro ≥ 1 (recebido: "noventa")',
    );
    expect(() => readConfig({ AUDIT_RETENTION_DAYS: "0" })).toThrow(/AUDIT_RETENTION_DAYS/);
  });

  it("deletes exactly the rows older than the limit, in batches that let other work run", async () => {
    const total = await count();
    const old = await count(NOW - 30 * DAY);
    expect(old).toBeGreaterThan(3000);
    let otherWorkRan = false;
    const pruning = pruneAuditLogs(db, 30, NOW, 100);
    setImmediate(() => (otherWorkRan = true));
    const deleted = await pruning;
    expect(otherWorkRan).toBe(true);
    expect(deleted).toBe(old);
    expect(await count()).toBe(total - old);
    expect(await count(NOW - 30 * DAY)).toBe(0);
    expect(await pruneAuditLogs(db, 30, NOW, 100)).toBe(0);
  });
});
