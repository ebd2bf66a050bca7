/**
 * Sessions and the second factor against the built server: a session keeps the strength it was
 * opened with, enrolment and a reset end the account's other sessions, enrolment needs a recent
 * sign-in, the key on file is the one its owner confirmed, and the session cookie cannot be planted.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { totp } from "../../support/totp";
import { createSession } from "../../../src/lib/server/sessions/session";
import { freshDatabaseUrl, onPostgres } from "../../support/pg";
import { startBuiltServer, type RunningServer } from "../../support/server";
import { createTestUser, type TestUser } from "../../support/users";

const TWO_FACTOR_KEY = "c".repeat(64);
const ELEVEN_MINUTES_MS = 11 * 60 * 1000;

interface CallOptions {
  method?: string;
  token?: string;
  cookie?: string;
  body?: unknown;
  origin?: string;
}

function caller(server: () => RunningServer) {
  return (urlPath: string, init: CallOptions = {}) => {
    const cookie = [init.token ? `b1_session=${init.token}` : "", init.cookie ?? ""].filter(Boolean).join("; ");
    return fetch(server().url + urlPath, {
      method: init.method ?? "GET",
      redirect: "manual",
      headers: { "content-type": "application/json", origin: init.origin ?? server().url, ...(cookie ? { cookie } : {}) },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    });
  };
}

function sessionTokenOf(response: Response, name = "b1_session"): string | undefined {
  const cookie = response.headers.getSetCookie().find((line) => line.startsWith(`${name}=`));
  return cookie?.split(";")[0]!.slice(name.length + 1) || undefined;
}

describe("two-factor and sessions", () => {
  let server: RunningServer;
  const call = caller(() => server);

  /** Begins and confirms enrolment through the API with this session; returns the key the page showed. */
  async function enrol(token: string): Promise<string> {
    const begun = await call("/api/conta/dois-fatores", { method: "POST", token, body: {} });
    expect(begun.status).toBe(200);
    const { manualKey } = (await begun.json()) as { manualKey: string };
    const confirmed = await call("/api/conta/dois-fatores", { method: "PUT", token, body: { code: totp(manualKey, 0) } });
    expect(confirmed.status).toBe(200);
    return manualKey;
  }

  /** E-mail and password through the sign-in endpoint: a session token, or the challenge cookie when a factor is on file. */
  async function signInWithPassword(user: TestUser): Promise<{ token?: string; challenge?: string }> {
    const response = await call("/api/auth/sign-in", { method: "POST", body: { email: user.email, password: user.password } });
    expect(response.status).toBe(200);
    const challenge = response.headers
      .getSetCookie()
      .find((line) => line.startsWith("b1_2fa="))
      ?.split(";")[0];
    return { token: sessionTokenOf(response), challenge };
  }

  beforeAll(async () => {
    server = await startBuiltServer({ TWO_FACTOR_KEY, RATE_LIMIT_MULTIPLIER: "100" });
  });
  afterAll(() => server?.stop());

  describe("a session keeps the strength it was opened with", () => {
    it("a password session opened before the admin enrolled is not upgraded by the enrolment: it ends", async () => {
      const admin = await createTestUser(server.db, ["admin"]);
      const before = (await signInWithPassword(admin)).token!;
      // Not enrolled yet: this session is led to the enrolment page like any other.
      expect((await call("/api/admin/users", { token: before })).status).toBe(403);
      await enrol(admin.token);
      // The session that enrolled presented the code: it opens the admin pages.
      expect((await call("/api/admin/users", { token: admin.token })).status).toBe(200);
      expect((await call("/admin-panel", { token: admin.token })).status).toBe(200);
      // The one opened with the password alone does not, not even for a moment.
      expect((await call("/api/admin/users", { token: before })).status).toBe(401);
      const page = await call("/admin-panel", { token: before });
      expect(page.status).toBe(302);
      expect(page.headers.get("location")).toBe("/auth?next=%2Fadmin-panel");
    });

    it("a password-only session of an account with two-factor on file never opens a page (a sign-in racing the enrolment)", async () => {
      const admin = await createTestUser(server.db, ["admin"]);
      await enrol(admin.token);
      // What a password sign-in that checked 'no factor' just before the enrolment committed would have written.
      const raced = (await createSession(server.db, admin.id)).token;
      expect((await call("/api/admin/users", { token: raced })).status).toBe(401);
      expect((await call("/faq", { token: raced })).status).toBe(302);
    });

    it("password then code opens a session that passes the requirement; password alone does not get past the code", async () => {
      const admin = await createTestUser(server.db, ["admin"]);
      const manualKey = await enrol(admin.token);
      const { token, challenge } = await signInWithPassword(admin);
      expect(token).toBeUndefined();
      const second = await call("/api/auth/two-factor", { method: "POST", cookie: challenge!, body: { code: totp(manualKey, 1) } });
      expect(second.status).toBe(200);
      expect((await call("/api/admin/users", { token: sessionTokenOf(second)! })).status).toBe(200);
    });

    it("enrolling ends the person's other sessions and keeps the one that enrolled", async () => {
      const user = await createTestUser(server.db, ["visualizador"]);
      const other = (await signInWithPassword(user)).token!;
      expect((await call("/faq", { token: other })).status).toBe(200);
      await enrol(user.token);
      expect((await call("/faq", { token: other })).status).toBe(302);
      expect((await call("/faq", { token: user.token })).status).toBe(200);
    });

    it("an administrator's reset of someone's second factor ends every session of that person", async () => {
      const admin = await createTestUser(server.db, ["admin"]);
      await enrol(admin.token);
      const user = await createTestUser(server.db, ["visualizador"]);
      await enrol(user.token);
      expect((await call("/faq", { token: user.token })).status).toBe(200);
      expect((await call(`/api/admin/users/${user.id}/two-factor`, { method: "DELETE", token: admin.token })).status).toBe(200);
      expect((await call("/faq", { token: user.token })).status).toBe(302);
      expect((await call("/api/conta/sessoes", { token: user.token })).status).toBe(401);
    });
  });

  describe("enrolment needs a recent sign-in", () => {
    it("a session opened more than 10 minutes ago cannot start or confirm enrolment: 403 asking to sign in again", async () => {
      const user = await createTestUser(server.db, ["visualizador"]);
      const old = (await createSession(server.db, user.id, {}, Date.now() - ELEVEN_MINUTES_MS)).token;
      expect((await call("/faq", { token: old })).status).toBe(200);
      for (const [method, body] of [
        ["POST", {}],
        ["PUT", { code: "123456" }],
      ] as const) {
        const response = await call("/api/conta/dois-fatores", { method, token: old, body });
        expect(response.status, method).toBe(403);
        expect(await response.json(), method).toMatchObject({
          code: "reauthentication_required",
          error: expect.stringContaining("entre novamente"),
        });
      }
      const status = await (await call("/api/conta/dois-fatores", { token: old })).json();
      expect(status.enrolled).toBe(false);
      // A fresh sign-in can.
      expect((await call("/api/conta/dois-fatores", { method: "POST", token: user.token, body: {} })).status).toBe(200);
    });
  });

  describe("begin and confirm race (two sessions of one person)", () => {
    it("a second session starting enrolment while the owner confirms never replaces the confirmed key", async () => {
      // Rounds where a rival's key landed before the confirmation rightly refuse the owner's code; count the others.
      let confirmedRounds = 0;
      for (let round = 0; round < 40 && confirmedRounds < 6; round++) {
        const owner = await createTestUser(server.db, ["visualizador"]);
        const rival = (await createSession(server.db, owner.id)).token;
        const begun = await (await call("/api/conta/dois-fatores", { method: "POST", token: owner.token, body: {} })).json();
        const confirm = call("/api/conta/dois-fatores", { method: "PUT", token: owner.token, body: { code: totp(begun.manualKey, 0) } });
        // The rival's 'Ativar' clicks land before, during and after the confirmation.
        const rivals = Array.from({ length: 12 }, (_, i) =>
          sleep((round % 4) + i * 2).then(() => call("/api/conta/dois-fatores", { method: "POST", token: rival, body: {} })),
        );
        const [confirmed] = await Promise.all([confirm, ...rivals]);
        if (confirmed.status !== 200) continue;
        confirmedRounds += 1;
        // The owner was told enrolment is on: their authenticator must be the one on file.
        const { challenge } = await signInWithPassword(owner);
        expect(challenge, `round ${round}`).toBeDefined();
        const second = await call("/api/auth/two-factor", { method: "POST", cookie: challenge!, body: { code: totp(begun.manualKey, 1) } });
        expect(second.status, `round ${round}: the owner's code after a confirmed enrolment`).toBe(200);
      }
      expect(confirmedRounds).toBeGreaterThan(0);
      // Up to 40 rounds of a new person, an enrolment race and an Argon2id sign-in: bounded by count, past
      // vitest's 20 s default on PostgreSQL on a busy 2-core machine.
    }, 90_000);
  });

  describe("cookie tossing", () => {
    it("a request carrying two session cookies is signed out and told to clear the cookie, whichever comes first", async () => {
      const victim = await createTestUser(server.db, ["visualizador"]);
      const attacker = await createTestUser(server.db, ["visualizador"]);
      for (const cookie of [
        `b1_session=${attacker.token}; b1_session=${victim.token}`,
        `b1_session=${victim.token}; b1_session=${attacker.token}`,
      ]) {
        const api = await call("/api/conta/sessoes", { cookie });
        expect(api.status).toBe(401);
        expect(api.headers.getSetCookie()).toContain("b1_session=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0");
        const page = await call("/conta/sessoes", { cookie });
        expect(page.status).toBe(302);
        expect(page.headers.get("location")).toMatch(/^\/auth/);
        expect(page.headers.getSetCookie()).toContain("b1_session=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0");
      }
      // Neither session was ended: each alone still works.
      expect((await call("/api/conta/sessoes", { token: victim.token })).status).toBe(200);
      expect((await call("/api/conta/sessoes", { token: attacker.token })).status).toBe(200);
    });
  });
});

describe("the session cookie when PUBLIC_URL is https", () => {
  const PUBLIC_URL = "https://hub.b1.example.com";
  let server: RunningServer;
  const call = caller(() => server);
  beforeAll(async () => {
    server = await startBuiltServer({ PUBLIC_URL });
  });
  afterAll(() => server?.stop());

  it("is __Host-b1_session; a plain b1_session, which a sibling subdomain can plant, signs nobody in", async () => {
    const user = await createTestUser(server.db, ["visualizador"]);
    const response = await call("/api/auth/sign-in", {
      method: "POST",
      origin: PUBLIC_URL,
      body: { email: user.email, password: user.password },
    });
    expect(response.status).toBe(200);
    const line = response.headers.getSetCookie().find((cookie) => cookie.startsWith("__Host-b1_session="))!;
    expect(line).toMatch(/; Path=\/;.*; Secure$/);
    expect(line).not.toMatch(/domain=/i);
    const token = sessionTokenOf(response, "__Host-b1_session")!;
    expect((await call("/api/conta/sessoes", { cookie: `__Host-b1_session=${token}` })).status).toBe(200);
    expect((await call("/api/conta/sessoes", { cookie: `b1_session=${token}` })).status).toBe(401);
  });
});

describe.skipIf(!onPostgres)("two instances on one PostgreSQL: the session cache follows an enrolment", () => {
  let a: RunningServer;
  let b: RunningServer;
  const onA = caller(() => a);
  const onB = caller(() => b);
  beforeAll(async () => {
    const url = (await freshDatabaseUrl())!;
    const folders = [0, 1].map(() => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "b1-pair-"));
      fs.writeFileSync(path.join(dir, "database-url"), url);
      return dir;
    });
    [a, b] = (await Promise.all(folders.map((dataDir) => startBuiltServer({ TWO_FACTOR_KEY }, { dataDir })))) as [
      RunningServer,
      RunningServer,
    ];
  });
  afterAll(async () => {
    await a?.stop();
    await b?.stop();
  });

  it("A's cached copies of the admin's sessions are dropped when the admin enrols through B", async () => {
    const admin = await createTestUser(a.db, ["admin"]);
    const other = (await createSession(a.db, admin.id)).token;
    // Both sessions are now in A's cache, both led to the enrolment page.
    expect((await onA("/api/admin/users", { token: admin.token })).status).toBe(403);
    expect((await onA("/api/admin/users", { token: other })).status).toBe(403);
    const begun = await (await onB("/api/conta/dois-fatores", { method: "POST", token: admin.token, body: {} })).json();
    const confirmed = await onB("/api/conta/dois-fatores", { method: "PUT", token: admin.token, body: { code: totp(begun.manualKey, 0) } });
    expect(confirmed.status).toBe(200);
    expect((await onA("/api/admin/users", { token: admin.token })).status).toBe(200);
    expect((await onA("/api/admin/users", { token: other })).status).toBe(401);
  });
});
