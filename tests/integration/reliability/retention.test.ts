import { afterAll, beforeAll, expect, it } from "vitest";
import { insertAuditRows } from "../../../scripts/bench/scale-data";
import { startBuiltServer, type RunningServer } from "../../support/server";
import { count as count_, gte, lt } from "drizzle-orm";
import { auditLogs } from "../../../db/schema/index";

const DAY = 24 * 60 * 60 * 1000;
let server: RunningServer;

beforeAll(async () => {
  server = await startBuiltServer({ AUDIT_RETENTION_DAYS: "30", AUDIT_RETENTION_INTERVAL_MS: "200" });
});
afterAll(() => server?.stop());

it("the running server prunes audit rows past AUDIT_RETENTION_DAYS periodically and keeps the rest", async () => {
  await insertAuditRows(server.db, 2000, []);
  const cutoff = Date.now() - 30 * DAY;
  const count = async (older: boolean) =>
    (
      await server.db
        .select({ n: count_() })
        .from(auditLogs)
        .where(older ? lt(auditLogs.createdAt, cutoff) : gte(auditLogs.createdAt, cutoff))
    )[0]!.n;
  const recent = await count(false);
  expect(await count(true)).toBeGreaterThan(1000);
  await expect.poll(() => count(true), { timeout: 10_000 }).toBe(0);
  expect(await count(false)).toBe(recent);
});
