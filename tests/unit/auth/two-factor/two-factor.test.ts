import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { eq } from "drizzle-orm";
import { totp, totpAt, totpStep } from "../../../support/totp";
import { auditLogs } from "../../../../db/schema/index";
import { twoFactorSecrets } from "../../../../db/schema/index";
import { readTwoFactorSettings } from "../../../../src/lib/server/config/two-factor";
import { decryptTwoFactorSecret, encryptTwoFactorSecret } from "../../../../src/lib/server/auth/two-factor/secret";
import { startBuiltServer, type RunningServer } from "../../../support/server";
import { createTestUser, type TestUser } from "../../../support/users";

const KEY_HEX = "b".repeat(64);
let server: RunningServer;

function call(path: string, init: { method?: string; token?: string; cookie?: string; body?: unknown } = {}) {
  const cookies = [init.token ? `b1_session=${init.token}` : "", init.cookie ?? ""].filter(Boolean).join("; ");
  return fetch(server.url + path, {
    method: init.method ?? "GET",
    redirect: "manual",
    headers: { "content-type": "application/json", origin: server.url, ...(cookies ? { cookie: cookies } : {}) },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
}

/** Enrols the user through the API; returns the key the page would show and the time-step whose code confirmed it. */
async function enrolAt(user: TestUser): Promise<{ manualKey: string; step: number }> {
  const begun = await (await call("/api/conta/dois-fatores", { method: "POST", token: user.token, body: {} })).json();
  const step = totpStep();
  const confirmed = await call("/api/conta/dois-fatores", {
    method: "PUT",
    token: user.token,
    body: { code: totpAt(begun.manualKey, step) },
  });
  expect(confirmed.status).toBe(200);
  return { manualKey: begun.manualKey, step };
}

/** Enrols the user through the API; returns the key the page would show. */
async function enrol(user: TestUser): Promise<string> {
  return (await enrolAt(user)).manualKey;
}

/** Password step: the challenge cookie it sets. */
async function passwordStep(user: TestUser): Promise<string> {
  const response = await call("/api/auth/sign-in", { method: "POST", body: { email: user.email, password: user.password } });
  expect(await response.json()).toEqual({ ok: true, next: "/dois-fatores" });
  expect(response.headers.getSetCookie().some((cookie) => cookie.startsWith("b1_session="))).toBe(false);
  return response.headers.getSetCookie()[0]!.split(";")[0]!;
}

beforeAll(async () => {
  server = await startBuiltServer({ TWO_FACTOR_KEY: KEY_HEX });
});
afterAll(() => server?.stop());

describe("two-factor settings", () => {
  it("without a key nothing is required, so a fresh clone starts", () => {
    expect(readTwoFactorSettings({})).toEqual({ key: null, requiredRoles: [] });
  });
  it("with a key admin and security must enrol by default; the list is configurable", () => {
    expect(readTwoFactorSettings({ TWO_FACTOR_KEY: KEY_HEX }).requiredRoles).toEqual(["admin", "security"]);
    expect(readTwoFactorSettings({ TWO_FACTOR_KEY: KEY_HEX, TWO_FACTOR_REQUIRED_ROLES: "" }).requiredRoles).toEqual([]);
  });
  it("asking for two-factor without a key stops the start with a clear message", () => {
    const run = spawnSync(process.execPath, ["dist/gate/main.mjs"], {
      env: { ...process.env, PORT: "0", TWO_FACTOR_REQUIRED_ROLES: "admin", TWO_FACTOR_KEY: "", DATABASE_PATH: ":memory:" },
      encoding: "utf8",
      timeout: 20_000,
    });
    expect(run.status).not.toBe(0);
    expect(run.stderr + run.stdout).toContain("TWO_FACTOR_REQUIRED_ROLES=admin exige TWO_FACTOR_KEY");
  });
  it("a malformed key is refused", () => {
    expect(() => readTwoFactorSettings({ TWO_FACTOR_KEY: "curta" })).toThrow(/32 bytes/);
  });
});

describe("secrets at rest", () => {
  it("are sealed with AES-256-GCM: another key or an altered byte reads nothing", () => {
    const key = Buffer.from(KEY_HEX, "hex");
    const sealed = encryptTwoFactorSecret(key, new Uint8Array([1, 2, 3]));
    expect(decryptTwoFactorSecret(key, sealed)).toEqual(new Uint8Array([1, 2, 3]));
    expect(decryptTwoFactorSecret(Buffer.alloc(32, 7), sealed)).toBeNull();
    const altered = Buffer.from(sealed, "base64url");
    altered[14]! ^= 1;
    expect(decryptTwoFactorSecret(key, altered.toString("base64url"))).toBeNull();
  });
  it("the database never holds the key in clear", async () => {
    const user = await createTestUser(server.db, ["visualizador"]);
    const manualKey = await enrol(user);
    const row = (await server.db.select().from(twoFactorSecrets).where(eq(twoFactorSecrets.userId, user.id)))[0]!;
    expect(row.secretEncrypted).not.toContain(manualKey.replace(/\s/g, ""));
  });
});

describe("the code after the password", () => {
  it("a code already used is refused (no replay)", async () => {
    const user = await createTestUser(server.db, ["visualizador"]);
    const { manualKey, step } = await enrolAt(user);
    const challenge = await passwordStep(user);
    // The enrolment consumed its step's code (named by its step: a step may end between the two requests).
    const replay = await call("/api/auth/two-factor", { method: "POST", cookie: challenge, body: { code: totpAt(manualKey, step) } });
    expect(replay.status).toBe(401);
    const next = await call("/api/auth/two-factor", { method: "POST", cookie: challenge, body: { code: totpAt(manualKey, step + 1) } });
    expect(next.status).toBe(200);
    expect(next.headers.getSetCookie().some((cookie) => cookie.startsWith("b1_session="))).toBe(true);
  });
  it("five wrong codes end the challenge: even the right code then needs the password again", async () => {
    const user = await createTestUser(server.db, ["visualizador"]);
    const manualKey = await enrol(user);
    const challenge = await passwordStep(user);
    for (let i = 0; i < 5; i++) await call("/api/auth/two-factor", { method: "POST", cookie: challenge, body: { code: "12345" + i } });
    const late = await call("/api/auth/two-factor", { method: "POST", cookie: challenge, body: { code: totp(manualKey, 1) } });
    expect(late.status).toBe(401);
    expect((await late.json()).code).toBe("challenge_expired");
  });
  it("without a challenge cookie no code opens a session", async () => {
    const response = await call("/api/auth/two-factor", { method: "POST", body: { code: "123456" } });
    expect(response.status).toBe(401);
  });
});

describe("an administrator resets a user's second factor", () => {
  it("is audited and the user signs in with the password alone until enrolling again", async () => {
    const admin = await createTestUser(server.db, ["admin"]);
    await enrol(admin);
    const user = await createTestUser(server.db, ["visualizador"]);
    await enrol(user);
    const reset = await call(`/api/admin/users/${user.id}/two-factor`, { method: "DELETE", token: admin.token });
    expect(reset.status).toBe(200);
    const row = (await server.db.select().from(auditLogs).where(eq(auditLogs.actionType, "two_factor_reset"))).at(-1)!;
    expect(row.userId).toBe(admin.id);
    expect(JSON.parse(row.actionDetails!).targetUserId).toBe(user.id);
    const signIn = await call("/api/auth/sign-in", { method: "POST", body: { email: user.email, password: user.password } });
    expect(signIn.headers.getSetCookie().some((cookie) => cookie.startsWith("b1_session="))).toBe(true);
    const again = await call(`/api/admin/users/${user.id}/two-factor`, { method: "DELETE", token: admin.token });
    expect(again.status).toBe(409);
  });
  it("lists who has a second factor and whose roles require one", async () => {
    const admin = await createTestUser(server.db, ["admin"]);
    await enrol(admin);
    const enrolled = await createTestUser(server.db, ["visualizador"]);
    await enrol(enrolled);
    const plain = await createTestUser(server.db, ["security"]);
    const stateOf = async (user: TestUser) => {
      const response = await call(`/api/admin/users?q=${encodeURIComponent(user.email)}`, { token: admin.token });
      const page = (await response.json()) as { twoFactorOn: boolean; users: { twoFactor: unknown }[] };
      expect(page.twoFactorOn).toBe(true);
      return page.users[0]!.twoFactor;
    };
    expect(await stateOf(admin)).toEqual({ enrolled: true, required: true });
    expect(await stateOf(enrolled)).toEqual({ enrolled: true, required: false });
    expect(await stateOf(plain)).toEqual({ enrolled: false, required: true });
  });
  it("refuses to reset a user who only began enrolling, and leaves their pending key", async () => {
    const admin = await createTestUser(server.db, ["admin"]);
    await enrol(admin);
    const user = await createTestUser(server.db, ["visualizador"]);
    expect((await call("/api/conta/dois-fatores", { method: "POST", token: user.token, body: {} })).status).toBe(200);
    const pending = await server.db.select().from(twoFactorSecrets).where(eq(twoFactorSecrets.userId, user.id));
    const reset = await call(`/api/admin/users/${user.id}/two-factor`, { method: "DELETE", token: admin.token });
    expect(reset.status).toBe(409);
    expect((await reset.json()).error).toBe("Este usuário não tem verificação em duas etapas ativa.");
    expect(await server.db.select().from(twoFactorSecrets).where(eq(twoFactorSecrets.userId, user.id))).toEqual(pending);
  });
  it("a non-admin cannot reset anyone's", async () => {
    const user = await createTestUser(server.db, ["security"]);
    const response = await call(`/api/admin/users/${user.id}/two-factor`, { method: "DELETE", token: user.token });
    expect(response.status).toBe(403);
  });
});
