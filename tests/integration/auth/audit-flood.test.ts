import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { auditLogs } from "../../../db/schema/index";
import { startBuiltServer, type RunningServer } from "../../support/server";
import { createTestUser } from "../../support/users";

let server: RunningServer;

function post(path: string, body: unknown, ip: string) {
  return fetch(server.url + path, {
    method: "POST",
    headers: { "content-type": "application/json", origin: server.url, "x-forwarded-for": ip },
    body: JSON.stringify(body),
  });
}

async function blockedRows(actionType: "user_signup_attempt" | "user_login_attempt", ip: string) {
  return (
    await server.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.actionType, actionType), eq(auditLogs.result, "blocked"), eq(auditLogs.ipAddress, ip)))
  ).map((row) => JSON.parse(row.actionDetails ?? "{}") as { count?: number });
}

beforeAll(async () => {
  server = await startBuiltServer({ TRUST_PROXY: "true" });
});
afterAll(() => server?.stop());

// Each case sends 300 requests that each read and write the throttle and audit tables: bounded by count,
// and past vitest's 20 s default on PostgreSQL on a busy 2-core machine, so each has a budget of its own.
describe("an attacker flooding the audit log with rate-limited requests", () => {
  it("300 blocked sign-ups leave a bounded number of rows whose counts add up to the attempts", async () => {
    const ip = "203.0.113.50";
    // Invalid fields: each allowed request is refused with 400 and changes nothing.
    const statuses: number[] = [];
    for (let i = 0; i < 310; i++) statuses.push((await post("/api/auth/sign-up", { fullName: "x" }, ip)).status);
    const blocked = statuses.filter((status) => status === 429).length;
    expect(blocked).toBe(300);
    const rows = await blockedRows("user_signup_attempt", ip);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.length).toBeLessThanOrEqual(2);
    expect(rows.reduce((sum, row) => sum + (row.count ?? 1), 0)).toBe(blocked);
  }, 60_000);

  it("300 blocked password guesses on one account leave a bounded number of rows", async () => {
    const ip = "203.0.113.51";
    const victim = await createTestUser(server.db, ["visualizador"], "inundada");
    const statuses: number[] = [];
    for (let i = 0; i < 308; i++)
      statuses.push((await post("/api/auth/sign-in", { email: victim.email, password: "Errada@123x" }, ip)).status);
    const blocked = statuses.filter((status) => status === 429).length;
    expect(blocked).toBe(300);
    const rows = await blockedRows("user_login_attempt", ip);
    expect(rows.length).toBeLessThanOrEqual(2);
    expect(rows.reduce((sum, row) => sum + (row.count ?? 1), 0)).toBe(blocked);
  }, 60_000);
});
