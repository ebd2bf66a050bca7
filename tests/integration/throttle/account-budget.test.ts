/**
 * An account's budgets hold whatever the number of networks: wrong passwords, wrong codes and reset
 * mails asked by strangers (no remembered-device cookie for the account) share one budget per account
 * that no new address raises; the owner's browser, remembered from a past sign-in, has its own.
 */
import path from "node:path";
import { and, eq } from "drizzle-orm";
import { totp } from "../../support/totp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLogs } from "../../../db/schema/index";
import { readMails, waitForLink } from "../../support/mail";
import { startBuiltServer, type RunningServer } from "../../support/server";
import { createTestUser, type TestUser } from "../../support/users";

const KEY_HEX = "c".repeat(64);
const RATE_LIMITED = { error: "Muitas tentativas. Aguarde alguns minutos e tente novamente.", code: "rate_limited" };
let server: RunningServer;
let outbox: string;

function post(urlPath: string, body: unknown, ip: string, cookie?: string) {
  return fetch(server.url + urlPath, {
    method: "POST",
    headers: { "content-type": "application/json", origin: server.url, "x-forwarded-for": ip, ...(cookie ? { cookie } : {}) },
    body: JSON.stringify(body),
  });
}

/** `count` client addresses, each in a network of its own: IPv4 addresses and IPv6 /64s of one /48. */
function networks(count: number, tag: number): string[] {
  return Array.from({ length: count }, (_, i) => (i % 2 ? `10.${tag}.${i}.1` : `2001:db8:${tag.toString(16)}:${i.toString(16)}::1`));
}

/** Attempts that were really checked: their `failure` audit rows. */
async function checked(actionType: string, email: string, error?: string): Promise<number> {
  const rows = await server.db
    .select({ details: auditLogs.actionDetails })
    .from(auditLogs)
    .where(and(eq(auditLogs.actionType, actionType), eq(auditLogs.result, "failure")));
  return rows
    .map((row) => JSON.parse(row.details ?? "{}") as { email?: string; error?: string })
    .filter((details) => details.email === email && (!error || details.error === error)).length;
}

/** Reset links sent to `email`: each accepted request writes one `success` row once its mail is under way. */
async function resetsSent(email: string): Promise<number> {
  const rows = await server.db
    .select({ details: auditLogs.actionDetails })
    .from(auditLogs)
    .where(and(eq(auditLogs.actionType, "password_reset_request"), eq(auditLogs.result, "success")));
  return rows.filter((row) => (JSON.parse(row.details ?? "{}") as { email?: string }).email === email).length;
}

/** The `name=value` of the remembered-device cookie a response sets. */
function deviceCookieOf(response: Response): string | undefined {
  return response.headers
    .getSetCookie()
    .find((line) => line.startsWith("b1_device="))
    ?.split(";")[0];
}

/** A full sign-in from `ip`: the owner's browser now holds the device cookie. */
async function rememberedDevice(user: TestUser, ip: string): Promise<string> {
  const response = await post("/api/auth/sign-in", { email: user.email, password: user.password }, ip);
  expect(response.status).toBe(200);
  const cookie = deviceCookieOf(response);
  expect(cookie).toMatch(/^b1_device=[a-z2-7]{32}$/);
  return cookie!;
}

async function enrol(user: TestUser): Promise<string> {
  const cookie = `b1_session=${user.token}`;
  const begun = await (await post("/api/conta/dois-fatores", {}, "192.0.2.250", cookie)).json();
  const confirmed = await fetch(server.url + "/api/conta/dois-fatores", {
    method: "PUT",
    headers: { "content-type": "application/json", origin: server.url, cookie },
    body: JSON.stringify({ code: totp(begun.manualKey, 0) }),
  });
  expect(confirmed.status).toBe(200);
  return begun.manualKey;
}

/** The password step from `ip`: the challenge cookie (joined with `device` when given). */
async function challengeFrom(user: TestUser, ip: string, device?: string): Promise<string> {
  const response = await post("/api/auth/sign-in", { email: user.email, password: user.password }, ip, device);
  expect(response.status).toBe(200);
  const challenge = response.headers
    .getSetCookie()
    .find((line) => line.startsWith("b1_2fa="))!
    .split(";")[0]!;
  return device ? `${challenge}; ${device}` : challenge;
}

beforeAll(async () => {
  server = await startBuiltServer({ TRUST_PROXY: "true", TWO_FACTOR_KEY: KEY_HEX, TWO_FACTOR_REQUIRED_ROLES: "" });
  outbox = path.join(server.dataDir, "outbox");
});
afterAll(() => server?.stop());

describe("wrong passwords for one account", () => {
  it("40 networks, one after another, get no more checks than the account's 20", async () => {
    const victim = await createTestUser(server.db, ["visualizador"], "redes");
    const statuses: number[] = [];
    for (const ip of networks(40, 1))
      statuses.push((await post("/api/auth/sign-in", { email: victim.email, password: "Errada@123x" }, ip)).status);
    expect(statuses.filter((status) => status === 401)).toHaveLength(20);
    expect(statuses.slice(20)).toEqual(Array(20).fill(429));
    expect(await checked("user_login_attempt", victim.email, "invalid_credentials")).toBe(20);
  });

  it("50 networks in parallel: at most 20 are checked", async () => {
    const victim = await createTestUser(server.db, ["visualizador"], "redes-rajada");
    const answers = await Promise.all(
      networks(50, 2).map((ip, i) => post("/api/auth/sign-in", { email: victim.email, password: `Errada@${i}x` }, ip)),
    );
    const count = await checked("user_login_attempt", victim.email, "invalid_credentials");
    expect(count).toBeLessThanOrEqual(20);
    expect(answers.filter((answer) => answer.status === 401)).toHaveLength(count);
    expect(answers.filter((answer) => answer.status === 429)).toHaveLength(50 - count);
  });

  it("past the budget, the owner's remembered browser still signs in; a browser without it is refused unchecked", async () => {
    const owner = await createTestUser(server.db, ["visualizador"], "dono");
    const device = await rememberedDevice(owner, "192.0.2.10");
    for (const ip of networks(30, 3)) await post("/api/auth/sign-in", { email: owner.email, password: "Errada@123x" }, ip);
    const before = await checked("user_login_attempt", owner.email, "invalid_credentials");
    // A new browser, even with the right password from a clean network, waits for the window to end.
    const stranger = await post("/api/auth/sign-in", { email: owner.email, password: owner.password }, "192.0.2.11");
    expect(stranger.status).toBe(429);
    expect(await stranger.json()).toEqual(RATE_LIMITED);
    const wrongStranger = await post("/api/auth/sign-in", { email: owner.email, password: "Errada@123x" }, "192.0.2.12");
    expect(wrongStranger.status).toBe(429);
    expect(await checked("user_login_attempt", owner.email, "invalid_credentials")).toBe(before);
    // The owner's own typos are checked against the device's budget, from any network, and the right password opens a session.
    expect((await post("/api/auth/sign-in", { email: owner.email, password: "Errada@123x" }, "192.0.2.13", device)).status).toBe(401);
    const signedIn = await post("/api/auth/sign-in", { email: owner.email, password: owner.password }, "192.0.2.13", device);
    expect(signedIn.status).toBe(200);
    expect(signedIn.headers.getSetCookie().some((line) => line.startsWith("b1_session="))).toBe(true);
  });

  it("a device cookie remembered for another account is no proof for this one", async () => {
    const owner = await createTestUser(server.db, ["visualizador"], "dono-b");
    const other = await createTestUser(server.db, ["visualizador"], "outro");
    const othersDevice = await rememberedDevice(other, "192.0.2.20");
    for (const ip of networks(20, 4)) await post("/api/auth/sign-in", { email: owner.email, password: "Errada@123x" }, ip);
    const refused = await post("/api/auth/sign-in", { email: owner.email, password: owner.password }, "192.0.2.21", othersDevice);
    expect(refused.status).toBe(429);
    const forged = await post(
      "/api/auth/sign-in",
      { email: owner.email, password: owner.password },
      "192.0.2.21",
      `b1_device=${"a".repeat(32)}`,
    );
    expect(forged.status).toBe(429);
  });

  it("the device's own budget is bounded too, and strangers never spend it", async () => {
    const owner = await createTestUser(server.db, ["visualizador"], "dono-c");
    const device = await rememberedDevice(owner, "192.0.2.30");
    const statuses: number[] = [];
    for (let i = 0; i < 25; i++) {
      statuses.push((await post("/api/auth/sign-in", { email: owner.email, password: "Errada@123x" }, `10.9.${i}.1`, device)).status);
    }
    expect(statuses.slice(0, 20)).toEqual(Array(20).fill(401));
    expect(statuses.slice(20)).toEqual(Array(5).fill(429));
    // The account's budget for strangers is untouched by the device's failures.
    expect((await post("/api/auth/sign-in", { email: owner.email, password: owner.password }, "192.0.2.31")).status).toBe(200);
  });

  it("a password reset forgets every remembered browser of the account", async () => {
    const owner = await createTestUser(server.db, ["visualizador"], "dono-d");
    const device = await rememberedDevice(owner, "192.0.2.40");
    expect((await post("/api/auth/reset-request", { email: owner.email }, "192.0.2.40", device)).status).toBe(200);
    const link = await waitForLink(outbox, owner.email, "mode=update-password");
    const token = new URL(link).searchParams.get("token")!;
    const password = "Nova@Senha22";
    expect((await post("/api/auth/update-password", { token, password, confirmPassword: password }, "192.0.2.40")).status).toBe(200);
    for (const ip of networks(20, 5)) await post("/api/auth/sign-in", { email: owner.email, password: "Errada@123x" }, ip);
    expect((await post("/api/auth/sign-in", { email: owner.email, password }, "192.0.2.41", device)).status).toBe(429);
  });

  it("an administrator ending the account's sessions forgets its remembered browsers too", async () => {
    const owner = await createTestUser(server.db, ["visualizador"], "dono-e");
    const admin = await createTestUser(server.db, ["admin"], "admin-e");
    const device = await rememberedDevice(owner, "192.0.2.45");
    const ended = await fetch(`${server.url}/api/admin/users/${owner.id}/sessions`, {
      method: "DELETE",
      headers: { origin: server.url, cookie: `b1_session=${admin.token}` },
    });
    expect(ended.status).toBe(200);
    for (const ip of networks(20, 8)) await post("/api/auth/sign-in", { email: owner.email, password: "Errada@123x" }, ip);
    expect((await post("/api/auth/sign-in", { email: owner.email, password: owner.password }, "192.0.2.46", device)).status).toBe(429);
  });
});

describe("wrong two-factor codes for one account", () => {
  it("someone with the password spends the account's 10 wrong codes; the owner's remembered browser still gets in", async () => {
    const owner = await createTestUser(server.db, ["visualizador"], "dono-2fa");
    // Remembered before the second factor was turned on: enrolment keeps the account's devices.
    const device = await rememberedDevice(owner, "192.0.2.50");
    const manualKey = await enrol(owner);
    for (const ip of networks(6, 6)) {
      const challenge = await challengeFrom(owner, ip);
      await Promise.all(Array.from({ length: 5 }, (_, i) => post("/api/auth/two-factor", { code: String(300000 + i) }, ip, challenge)));
    }
    expect(await checked("two_factor_login_failure", owner.email)).toBeLessThanOrEqual(10);
    const strangerChallenge = await challengeFrom(owner, "192.0.2.51");
    const refused = await post("/api/auth/two-factor", { code: totp(manualKey, 1) }, "192.0.2.51", strangerChallenge);
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual(RATE_LIMITED);
    const ownerChallenge = await challengeFrom(owner, "192.0.2.52", device);
    const signedIn = await post("/api/auth/two-factor", { code: totp(manualKey, 1) }, "192.0.2.52", ownerChallenge);
    expect(signedIn.status).toBe(200);
    expect(deviceCookieOf(signedIn)).toMatch(/^b1_device=[a-z2-7]{32}$/);
  });
});

describe("reset mail for one address", () => {
  it("a stranger's network cannot spend the owner's reset mails", async () => {
    const owner = await createTestUser(server.db, ["visualizador"], "dono-mail");
    const stranger = await Promise.all(
      Array.from({ length: 6 }, () => post("/api/auth/reset-request", { email: owner.email }, "203.0.113.70")),
    );
    expect(stranger.filter((answer) => answer.status === 200)).toHaveLength(3);
    expect((await post("/api/auth/reset-request", { email: owner.email }, "203.0.113.71")).status).toBe(200);
  });

  it("past the address's total, the owner's remembered browser still gets its mail", async () => {
    const owner = await createTestUser(server.db, ["visualizador"], "dono-mail-b");
    const device = await rememberedDevice(owner, "192.0.2.60");
    const answers = await Promise.all(networks(50, 7).map((ip) => post("/api/auth/reset-request", { email: owner.email }, ip)));
    const accepted = answers.filter((answer) => answer.status === 200).length;
    expect(accepted).toBeLessThanOrEqual(10);
    expect(answers.filter((answer) => answer.status === 429)).toHaveLength(50 - accepted);
    expect((await post("/api/auth/reset-request", { email: owner.email }, "192.0.2.61")).status).toBe(429);
    await expect.poll(() => resetsSent(owner.email), { timeout: 10_000 }).toBe(accepted);
    const mailsBefore = readMails(outbox, owner.email).length;
    expect((await post("/api/auth/reset-request", { email: owner.email }, "192.0.2.61", device)).status).toBe(200);
    await expect.poll(() => resetsSent(owner.email), { timeout: 10_000 }).toBe(accepted + 1);
    await waitForLink(outbox, owner.email, "mode=update-password", 10_000, mailsBefore);
  });
});
