/**
 * A sign-in is acknowledged only together with its audit row. The database here refuses exactly
 * the row of a successful sign-in (a trigger, on either engine), as a lost connection or a full
 * disk would at that moment: the sign-in must fail with no session left behind, never answer 200
 * with the row missing. Once the row can be written, the same sign-in works.
 */
import { count, eq, sql } from "drizzle-orm";
import { totp } from "../../support/totp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sessions } from "../../../db/schema/index";
import { sqliteClient } from "../../../src/lib/server/data/db";
import { startTestProvider, type TestProvider } from "../../support/oidc-provider";
import { onPostgres } from "../../support/pg";
import { startBuiltServer, type RunningServer } from "../../support/server";
import { findUser, signInThroughProvider, ssoEnv } from "../../support/sso-portal";
import { createTestUser, type TestUser } from "../../support/users";
import { freePort } from "../../../scripts/pg-cluster.mjs";

const REFUSED_ROWS = "'user_login_success', 'sso_login_success'";
const SSO_EMAIL = "regina@b1.example.com";

let server: RunningServer;
let provider: TestProvider;

async function refuseSignInRows(refused: boolean) {
  const sqlite = sqliteClient(server.db);
  if (sqlite) {
    sqlite.exec(
      refused
        ? `create trigger refuse_sign_in_row before insert on audit_logs when new.action_type in (${REFUSED_ROWS})
           begin select raise(abort, 'registro de auditoria recusado'); end`
        : "drop trigger refuse_sign_in_row",
    );
  } else if (refused) {
    await server.db.execute(
      sql.raw(`create or replace function refuse_sign_in_row() returns trigger language plpgsql as $$
               begin
                 if new.action_type in (${REFUSED_ROWS}) then raise exception 'registro de auditoria recusado'; end if;
                 return new;
               end $$;
               create trigger refuse_sign_in_row before insert on audit_logs for each row execute function refuse_sign_in_row()`),
    );
  } else {
    await server.db.execute(sql`drop trigger refuse_sign_in_row on audit_logs`);
  }
}

function call(urlPath: string, body: unknown, cookie?: string) {
  return fetch(server.url + urlPath, {
    method: "POST",
    headers: { "content-type": "application/json", origin: server.url, ...(cookie ? { cookie } : {}) },
    body: JSON.stringify(body),
  });
}

const sessionCookie = (response: Response) => response.headers.getSetCookie().find((cookie) => cookie.startsWith("b1_session="));

async function sessionsOf(userId: string): Promise<number> {
  return (await server.db.select({ n: count() }).from(sessions).where(eq(sessions.userId, userId)))[0]!.n;
}

/** The code of the current 30 s step, or of the next one (a code is accepted once). */
beforeAll(async () => {
  const port = await freePort();
  provider = await startTestProvider(`http://127.0.0.1:${port}`, {
    regina: { email: SSO_EMAIL, email_verified: true, name: "Regina Prado", groups: ["lideres"] },
  });
  server = await startBuiltServer({
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    TWO_FACTOR_KEY: "c".repeat(64),
    TWO_FACTOR_REQUIRED_ROLES: "",
    ...ssoEnv(provider.issuer),
  });
}, 60_000);
afterAll(async () => {
  await server?.stop();
  await provider?.stop();
});

describe(`a sign-in whose audit row the database refuses (${onPostgres ? "PostgreSQL" : "SQLite"})`, () => {
  it("with the password: fails, with no session cookie and no session row; works once the row can be written", async () => {
    const person = await createTestUser(server.db, ["visualizador"], "sem-registro");
    const sessionsBefore = await sessionsOf(person.id);
    await refuseSignInRows(true);
    try {
      const refused = await call("/api/auth/sign-in", { email: person.email, password: person.password });
      expect(refused.status).toBeGreaterThanOrEqual(500);
      expect((await refused.json()).error).toEqual(expect.any(String));
      expect(sessionCookie(refused)).toBeUndefined();
      expect(await sessionsOf(person.id)).toBe(sessionsBefore);
    } finally {
      await refuseSignInRows(false);
    }
    const accepted = await call("/api/auth/sign-in", { email: person.email, password: person.password });
    expect(accepted.status).toBe(200);
    expect(sessionCookie(accepted)).toBeDefined();
    expect(await sessionsOf(person.id)).toBe(sessionsBefore + 1);
  });

  it("with the second factor: the right code fails the same way and leaves no session", async () => {
    const person: TestUser = await createTestUser(server.db, ["visualizador"], "sem-registro-2fa");
    const begun = await (await call("/api/conta/dois-fatores", {}, `b1_session=${person.token}`)).json();
    const enrolled = await fetch(server.url + "/api/conta/dois-fatores", {
      method: "PUT",
      headers: { "content-type": "application/json", origin: server.url, cookie: `b1_session=${person.token}` },
      body: JSON.stringify({ code: totp(begun.manualKey) }),
    });
    expect(enrolled.status).toBe(200);
    const sessionsBefore = await sessionsOf(person.id);

    const passwordStep = await call("/api/auth/sign-in", { email: person.email, password: person.password });
    expect(await passwordStep.json()).toEqual({ ok: true, next: "/dois-fatores" });
    const challenge = passwordStep.headers.getSetCookie()[0]!.split(";")[0]!;
    await refuseSignInRows(true);
    try {
      const refused = await call("/api/auth/two-factor", { code: totp(begun.manualKey, 1) }, challenge);
      expect(refused.status).toBeGreaterThanOrEqual(500);
      expect(sessionCookie(refused)).toBeUndefined();
      expect(await sessionsOf(person.id)).toBe(sessionsBefore);
    } finally {
      await refuseSignInRows(false);
    }
  });

  it("through the corporate provider: no account, no session, no role is left without its row", async () => {
    await refuseSignInRows(true);
    try {
      const { response, token } = await signInThroughProvider(server.url, "regina");
      expect(response.status).toBeGreaterThanOrEqual(500);
      expect(token).toBeUndefined();
      expect(await findUser(server.db, SSO_EMAIL)).toBeNull();
    } finally {
      await refuseSignInRows(false);
    }
    const { token } = await signInThroughProvider(server.url, "regina");
    expect(token).toBeDefined();
    expect(await findUser(server.db, SSO_EMAIL)).not.toBeNull();
  });
});
