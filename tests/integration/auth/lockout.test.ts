import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { auditLogs } from "../../../db/schema/index";
import { startBuiltServer, type RunningServer } from "../../support/server";
import { createTestUser } from "../../support/users";

let server: RunningServer;

// The gate trusts X-Forwarded-For here, so each request can come from the IP the test names.
function signIn(ip: string, email: string, password: string, cookie?: string) {
  return fetch(server.url + "/api/auth/sign-in", {
    method: "POST",
    headers: { "content-type": "application/json", origin: server.url, "x-forwarded-for": ip, ...(cookie ? { cookie } : {}) },
    body: JSON.stringify({ email, password }),
  });
}

beforeAll(async () => {
  server = await startBuiltServer({ TRUST_PROXY: "true" });
});
afterAll(() => server?.stop());

describe("an attacker trying to lock a colleague out with wrong passwords", () => {
  it("20 wrong passwords from one IP do not stop the owner signing in from another IP", async () => {
    const victim = await createTestUser(server.db, ["admin"], "vitima");
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) statuses.push((await signIn("203.0.113.1", victim.email, `Errada@${i}x`)).status);
    expect(statuses.slice(0, 8)).toEqual(Array(8).fill(401));
    expect(statuses.slice(8)).toEqual(Array(12).fill(429));
    expect((await signIn("203.0.113.2", victim.email, victim.password)).status).toBe(200);
    // The attacking IP stays refused for this account, even with the right password.
    expect((await signIn("203.0.113.1", victim.email, victim.password)).status).toBe(429);
  });

  it("wrong passwords spread over many IPs never refuse the right password from the owner's remembered browser", async () => {
    const victim = await createTestUser(server.db, ["visualizador"], "vitima-dist");
    const remembered = await signIn("198.51.100.199", victim.email, victim.password);
    const device = remembered.headers
      .getSetCookie()
      .find((line) => line.startsWith("b1_device="))!
      .split(";")[0]!;
    for (let i = 0; i < 30; i++) await signIn(`198.51.100.${i + 1}`, victim.email, "Errada@123x");
    expect((await signIn("198.51.100.200", victim.email, victim.password, device)).status).toBe(200);
    // Past the account's budget, a browser it never saw waits for the window to end, from any IP.
    expect((await signIn("198.51.100.201", victim.email, victim.password)).status).toBe(429);
  });

  it("a successful sign-in clears that client's failures for the account", async () => {
    const user = await createTestUser(server.db, ["visualizador"], "esquecido");
    for (let i = 0; i < 7; i++) expect((await signIn("192.0.2.7", user.email, "Errada@123x")).status).toBe(401);
    expect((await signIn("192.0.2.7", user.email, user.password)).status).toBe(200);
    for (let i = 0; i < 7; i++) expect((await signIn("192.0.2.7", user.email, "Errada@123x")).status).toBe(401);
  });

  it("an IP guessing across many accounts is refused before its body is read", async () => {
    for (let i = 0; i < 30; i++) expect((await signIn("192.0.2.99", `alvo${i}@b1.example.com`, "Errada@123x")).status).toBe(401);
    const refused = await fetch(server.url + "/api/auth/sign-in", {
      method: "POST",
      headers: { "content-type": "application/json", origin: server.url, "x-forwarded-for": "192.0.2.99" },
      body: "{não é json",
    });
    expect(refused.status).toBe(429);
    expect((await refused.json()).code).toBe("rate_limited");
  });
});

describe("a forwarded address that is not an IP address (TRUST_PROXY=true)", () => {
  it("is not taken as the client: made-up values share the socket's limit and the audit row records the socket's address", async () => {
    const victim = await createTestUser(server.db, ["visualizador"], "forjado");
    const statuses: number[] = [];
    // A new made-up "address" per guess would be a new client to the throttle if it were believed.
    for (let i = 0; i < 10; i++) statuses.push((await signIn(`203.0.113.9, nao-e-ip-${i}`, victim.email, `Errada@${i}x`)).status);
    expect(statuses.slice(0, 8)).toEqual(Array(8).fill(401));
    expect(statuses.slice(8)).toEqual(Array(2).fill(429));
    const rows = await server.db
      .select({ ip: auditLogs.ipAddress, details: auditLogs.actionDetails })
      .from(auditLogs)
      .where(eq(auditLogs.userId, victim.id));
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(["127.0.0.1", "::ffff:127.0.0.1"]).toContain(row.ip);
  });

  it("a valid forwarded IPv4 or IPv6 address is still the client's", async () => {
    const user = await createTestUser(server.db, ["visualizador"], "proxy-valido");
    for (const ip of ["192.0.2.45", "2001:db8::45"]) {
      expect((await signIn(ip, user.email, "Errada@123x")).status).toBe(401);
    }
    const rows = await server.db.select({ ip: auditLogs.ipAddress }).from(auditLogs).where(eq(auditLogs.userId, user.id));
    expect(rows.map((row) => row.ip).sort()).toEqual(["192.0.2.45", "2001:db8::45"]);
  });

  it("only the proxy's own entry, the last, names the client: what the client wrote before it is not believed", async () => {
    // Found by the attacker's pass behind deploy/haproxy.cfg (option forwardfor keeps the client's header and
    // appends its own): the first entry was taken, so a new made-up address per guess was never throttled
    // (40 of 40 checked) and the audit log recorded whatever the client wrote.
    const victim = await createTestUser(server.db, ["visualizador"], "cabecalho-do-cliente");
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await signIn(`203.0.${i}.7, 198.51.100.1`, victim.email, `Errada@${i}x`)).status);
    expect(statuses.slice(0, 8)).toEqual(Array(8).fill(401));
    expect(statuses.slice(8)).toEqual(Array(2).fill(429));
    const rows = await server.db.select({ ip: auditLogs.ipAddress }).from(auditLogs).where(eq(auditLogs.userId, victim.id));
    expect(new Set(rows.map((row) => row.ip))).toEqual(new Set(["198.51.100.1"]));
  });

  it("a zone id or a port in the proxy's entry is not an address; an IPv4-mapped IPv6 address is read as IPv4", async () => {
    const user = await createTestUser(server.db, ["visualizador"], "zona");
    for (const ip of ["fe80::1%eth0", "192.0.2.7:443", "::ffff:192.0.2.77"])
      expect((await signIn(ip, user.email, "Errada@123x")).status).toBe(401);
    const rows = await server.db.select({ ip: auditLogs.ipAddress }).from(auditLogs).where(eq(auditLogs.userId, user.id));
    expect(rows.map((row) => row.ip).sort()).toEqual(["127.0.0.1", "127.0.0.1", "192.0.2.77"].sort());
  });
});
