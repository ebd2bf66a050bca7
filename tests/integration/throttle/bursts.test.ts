import { and, eq } from "drizzle-orm";
import { totp } from "../../support/totp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLogs } from "../../../db/schema/index";
import { startBuiltServer, type RunningServer } from "../../support/server";
import { createTestUser, type TestUser } from "../../support/users";

// Parallel bursts: every limit is one atomic check-and-count, so at most the limit is ever checked,
// whatever the interleaving of requests on one instance (or several, in the PostgreSQL pass).
const KEY_HEX = "c".repeat(64);
let server: RunningServer;

function post(path: string, body: unknown, ip: string, cookie?: string) {
  return fetch(server.url + path, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      origin: server.url,
      "x-forwarded-for": ip,
      ...(cookie ? { cookie } : {}),
    },
    body: JSON.stringify(body),
  });
}

/** Attempts that were really checked: their `failure` audit rows (a refusal is one `blocked` row). */
async function countAudit(actionType: string, email: string, error?: string): Promise<number> {
  const rows = await server.db
    .select({ details: auditLogs.actionDetails })
    .from(auditLogs)
    .where(and(eq(auditLogs.actionType, actionType), eq(auditLogs.result, "failure")));
  return rows
    .map((row) => JSON.parse(row.details ?? "{}") as { email?: string; error?: string })
    .filter((details) => details.email === email && (!error || details.error === error)).length;
}

const statuses = (responses: Response[]) => responses.map((r) => r.status).sort();

async function enrol(user: TestUser): Promise<string> {
  const cookie = `b1_session=${user.token}`;
  const begun = await (await post("/api/conta/dois-fatores", {}, "192.0.2.250", cookie)).json();
  const confirmed = await fetch(server.url + "/api/conta/dois-fatores", {
    method: "PUT",
    headers: { "content-type": "application/json", origin: server.url, cookie },
    body: JSON.stringify({ code: totp(begun.manualKey) }),
  });
  expect(confirmed.status).toBe(200);
  return begun.manualKey;
}

/** The password step from `ip`: the challenge cookie. */
async function challengeFrom(user: TestUser, ip: string): Promise<string> {
  const response = await post("/api/auth/sign-in", { email: user.email, password: user.password }, ip);
  expect(response.status).toBe(200);
  return response.headers.getSetCookie()[0]!.split(";")[0]!;
}

beforeAll(async () => {
  server = await startBuiltServer({ TRUST_PROXY: "true", TWO_FACTOR_KEY: KEY_HEX, TWO_FACTOR_REQUIRED_ROLES: "" });
});
afterAll(() => server?.stop());

describe("50 parallel attempts check at most the limit", () => {
  it("wrong passwords for one account from one client: at most 8 are checked", async () => {
    const victim = await createTestUser(server.db, ["visualizador"], "rajada");
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) => post("/api/auth/sign-in", { email: victim.email, password: `Errada@${i}x` }, "203.0.113.50")),
    );
    const checked = await countAudit("user_login_attempt", victim.email, "invalid_credentials");
    expect(checked).toBeLessThanOrEqual(8);
    expect(statuses(answers).filter((s) => s === 401)).toHaveLength(checked);
    expect(statuses(answers).filter((s) => s === 429)).toHaveLength(50 - checked);
  });

  it("wrong passwords over many accounts from one IP: at most 30 are checked", async () => {
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        post("/api/auth/sign-in", { email: `ninguem${i}@b1.example.com`, password: "Errada@123x" }, "203.0.113.51"),
      ),
    );
    expect(statuses(answers).filter((s) => s === 401).length).toBeLessThanOrEqual(30);
    expect(statuses(answers).filter((s) => s === 429).length).toBeGreaterThanOrEqual(20);
  });

  it("wrong codes on one two-factor challenge: at most 5 are checked, then the right code is refused too", async () => {
    const user = await createTestUser(server.db, ["visualizador"], "rajada-2fa");
    const manualKey = await enrol(user);
    const challenge = await challengeFrom(user, "203.0.113.52");
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) => post("/api/auth/two-factor", { code: String(100000 + i) }, "203.0.113.52", challenge)),
    );
    expect(answers.every((r) => r.status === 401 || r.status === 429)).toBe(true);
    expect(await countAudit("two_factor_login_failure", user.email)).toBeLessThanOrEqual(5);
    // However many were refused at once, each limit that refused writes one `blocked` row with a count.
    const blocked = await server.db
      .select({ details: auditLogs.actionDetails })
      .from(auditLogs)
      .where(and(eq(auditLogs.actionType, "two_factor_login_failure"), eq(auditLogs.result, "blocked")));
    expect(blocked.length).toBeLessThanOrEqual(2);
    const late = await post("/api/auth/two-factor", { code: totp(manualKey, 1) }, "203.0.113.52", challenge);
    expect(late.status).not.toBe(200);
  });

  it("no number of IPs (IPv6 of one /64 included) or challenges raises an account's budget of wrong codes", async () => {
    const user = await createTestUser(server.db, ["visualizador"], "orcamento-2fa");
    const manualKey = await enrol(user);
    const ips = [
      ...Array.from({ length: 6 }, (_, i) => `198.51.100.${i + 10}`),
      ...Array.from({ length: 6 }, (_, i) => `2001:db8:7:1::${(i + 1).toString(16)}`),
    ];
    for (const ip of ips) {
      const challenge = await challengeFrom(user, ip);
      await Promise.all(Array.from({ length: 5 }, (_, i) => post("/api/auth/two-factor", { code: String(200000 + i) }, ip, challenge)));
    }
    expect(await countAudit("two_factor_login_failure", user.email)).toBeLessThanOrEqual(10);
    // Past the budget even the right code waits for the window to end.
    const challenge = await challengeFrom(user, "198.51.100.99");
    const refused = await post("/api/auth/two-factor", { code: totp(manualKey, 1) }, "198.51.100.99", challenge);
    expect(refused.status).toBe(429);
    expect((await refused.json()).code).toBe("rate_limited");
  });

  it("sign-ups from one IP: at most 10 are processed", async () => {
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        post(
          "/api/auth/sign-up",
          { fullName: `Pessoa ${i}`, email: `rajada-cadastro${i}@b1.example.com`, password: "Senha@Forte123" },
          "203.0.113.53",
        ),
      ),
    );
    expect(statuses(answers).filter((s) => s === 429).length).toBe(40);
  });

  it("reset and resend requests for one address from many networks: at most 10 are accepted an hour", async () => {
    const user = await createTestUser(server.db, ["visualizador"], "rajada-link");
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        i % 2
          ? post("/api/auth/reset-request", { email: user.email }, `192.0.2.${i + 100}`)
          : post("/api/auth/resend-link", { email: user.email, type: "password-reset" }, `192.0.2.${i + 100}`),
      ),
    );
    expect(statuses(answers).filter((s) => s === 200).length).toBeLessThanOrEqual(10);
    expect(statuses(answers).filter((s) => s === 429).length).toBeGreaterThanOrEqual(40);
  });
});
