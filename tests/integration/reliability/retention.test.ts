import { afterAll, beforeAll, expect, it } from "vitest";
import { insertAuditRows } from "../../../scripts/scale-data";
import { startBuiltServer, type RunningServer } from "../../support/server";

const DAY = 24 * 60 * 60 * 1000;
let server: RunningServer;

beforeAll(async () => {
  server = await startBuiltServer({ AUDIT_RETENTION_DAYS: "30", AUDIT_RETENTION_INTERVAL_MS: "200" });
});
afterAll(() => server?.stop());

it("the running server prunes audit rows past AUDIT_RETENTION_DAYS periodically and keeps the rest", async () => {
  await insertAuditRows(server.db, 2000, []);
  const count = (where: string) =>
    (server.db.$client.prepare(`select count(*) as n from audit_logs where ${where}`).get(Date.now() - 30 * DAY) as { n: number }).n;
  const recent = count("created_at >= ?");
  expect(count("created_at < ?")).toBeGreaterThan(1000);
  await expect.poll(() => count("created_at < ?"), { timeout: 10_000 }).toBe(0);
  expect(count("created_at >= ?")).toBe(recent);
});
