// Account takeover through corporate sign-in: a pending sign-up, e-mail-only matching, accounts of another issuer.
// One file over 200 lines on purpose: the provider and the portal are started once for all these cases.
import { spawn } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { emailTokens, roles, userRoles, users } from "../../../../db/schema/index";
import { SSO_ERROR_MESSAGES } from "../../../../src/lib/auth/sso-messages";
import { verifyAuditChain } from "../../../../src/lib/server/audit/verify";
import { createUser } from "../../../../src/lib/server/auth/user";
import { closeDatabase } from "../../../../src/lib/server/data/db";
import { waitForLink } from "../../../support/mail";
import { returnToPortal, signInAtProvider } from "../../../support/oidc-browser";
import { freePort, startTestProvider, type TestIdentity, type TestProvider } from "../../../support/oidc-provider";
import { startBuiltServer, type RunningServer } from "../../../support/server";
import { auditRows, findUser, refusalPage, sessionOwner, signInThroughProvider, ssoEnv } from "../../../support/sso-portal";
import { scriptArgs } from "../../../support/scripts";

const KATIA = "katia@b1.example.com";
/** The documented expiry of a pending sign-up, written out rather than imported. */
const SEVEN_DAYS = 7 * 24 * 60 * 60_000;
const ATTACKER_PASSWORD = "Senha@Atac1";

const IDENTITIES: Record<string, TestIdentity> = {
  katia: { email: KATIA, email_verified: true, name: "Katia Lima", groups: ["grupo-ti"] },
};

let provider: TestProvider;
let server: RunningServer;
let port: number;

const post = (urlPath: string, body: unknown) =>
  fetch(server.url + urlPath, {
    method: "POST",
    headers: { "content-type": "application/json", origin: server.url },
    body: JSON.stringify(body),
  });
const signUp = (email: string, password: string) =>
  post("/api/auth/sign-up", { fullName: "Pessoa Qualquer", email, password, confirmPassword: password });
const signIn = (email: string, password: string) => post("/api/auth/sign-in", { email, password });
const roleNames = async (userId: string) =>
  (
    await server.db
      .select({ name: roles.name })
      .from(userRoles)
      .innerJoin(roles, eq(roles.id, userRoles.roleId))
      .where(eq(userRoles.userId, userId))
  )
    .map((row) => row.name)
    .sort();
const userCount = async () => (await server.db.select({ id: users.id }).from(users)).length;

/** Stops the portal and starts it again on the same port and database, with `issuer` as its provider. */
async function restartPortal(issuer: string) {
  process.kill(server.pid, "SIGTERM");
  expect(await server.exited).toBe(0);
  await closeDatabase(server.db);
  server = await startBuiltServer(portalEnv(issuer), { dataDir: server.dataDir });
}

function runUserCli(args: string[], databaseEnv: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, scriptArgs("scripts/user.ts", args), {
      env: { ...process.env, ...databaseEnv },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.on("exit", (code) => resolve({ code, output }));
  });
}

function portalEnv(issuer: string): Record<string, string> {
  const url = `http://127.0.0.1:${port}`;
  return { PORT: String(port), PUBLIC_URL: url, RATE_LIMIT_MULTIPLIER: "100", ...ssoEnv(issuer) };
}

beforeAll(async () => {
  port = await freePort();
  provider = await startTestProvider(`http://127.0.0.1:${port}`, IDENTITIES);
  server = await startBuiltServer(portalEnv(provider.issuer));
});
afterAll(async () => {
  await server?.stop();
  await provider?.stop();
});

describe("a pending password sign-up of a colleague's address", () => {
  it("does not survive her first corporate sign-in: the attacker's password and links die, and they never become admin", async () => {
    // The attacker signs up Katia's address with a password of their own; the account waits for confirmation.
    expect((await signUp(KATIA, ATTACKER_PASSWORD)).status).toBe(201);
    const attackerLink = await waitForLink(path.join(server.dataDir, "outbox"), KATIA, "/api/auth/confirm");
    const pendingId = (await findUser(server.db, KATIA))!.id;

    // Katia uses 'Entrar com a conta corporativa'; her group maps to admin.
    const katia = await signInThroughProvider(server.url, "katia");
    expect(katia.location).toBe("/");
    expect(await sessionOwner(server.db, katia.token)).toBe(pendingId);
    expect(await roleNames(pendingId)).toContain("admin");

    // The attacker's password no longer opens the account, and the sign-up's confirmation link (in Katia's mailbox) is dead.
    const attempt = await signIn(KATIA, ATTACKER_PASSWORD);
    expect(attempt.status).toBe(401);
    expect(attempt.headers.get("set-cookie")).toBeNull();
    const confirm = await post("/api/auth/confirm", {
      token: new URL(attackerLink).searchParams.get("token"),
      password: ATTACKER_PASSWORD,
    });
    expect(confirm.status).toBe(400);
    expect(await server.db.select().from(emailTokens).where(eq(emailTokens.userId, pendingId))).toHaveLength(0);

    const success = (await auditRows(server.db, "sso_login_success")).filter((row) => row.userId === pendingId);
    expect(success.at(-1)?.details).toMatchObject({ email: KATIA, created: false, pending_account: "password_discarded" });
  });
});

describe("accounts are linked to the provider's iss + sub", () => {
  it("a changed e-mail at the provider with the same sub opens the same account, under the new address", async () => {
    const katiaId = (await findUser(server.db, KATIA))!.id;
    provider.identities.set("katia", { ...IDENTITIES.katia!, email: "katia.lima@b1.example.com" });
    const before = await userCount();
    const { location, token } = await signInThroughProvider(server.url, "katia");
    expect(location).toBe("/");
    expect(await sessionOwner(server.db, token)).toBe(katiaId);
    expect(await userCount()).toBe(before);
    expect((await findUser(server.db, "katia.lima@b1.example.com"))?.id).toBe(katiaId);
    expect(await findUser(server.db, KATIA)).toBeNull();
  });

  it("another sub arriving with the linked e-mail (in other letter case) is refused with a Portuguese page and an audit row", async () => {
    const katia = (await findUser(server.db, "katia.lima@b1.example.com"))!;
    provider.identities.set("impostora", { email: "Katia.Lima@B1.example.com", email_verified: true, name: "Outra Pessoa", groups: [] });
    const { location, token } = await signInThroughProvider(server.url, "impostora");
    expect(location).toBe("/auth?sso_error=conflict");
    expect(token).toBeUndefined();
    expect(await refusalPage(server.url, location)).toContain(SSO_ERROR_MESSAGES.conflict);
    const after = (await findUser(server.db, "katia.lima@b1.example.com"))!;
    expect(after.fullName).toBe(katia.fullName);
    expect(await roleNames(katia.id)).toContain("admin");
    expect((await auditRows(server.db, "sso_identity_conflict")).at(-1)).toMatchObject({
      userId: katia.id,
      result: "failure",
      details: { email: "katia.lima@b1.example.com", issuer: provider.issuer, subject: "impostora", error: "linked_to_other_identity" },
    });
  });

  it("a sub moving to an address that another linked account holds is refused too, and neither account changes", async () => {
    provider.identities.set("joao", { email: "joao@b1.example.com", email_verified: true, name: "João", groups: [] });
    expect((await signInThroughProvider(server.url, "joao")).location).toBe("/");
    provider.identities.set("joao", { email: "katia.lima@b1.example.com", email_verified: true, name: "João", groups: ["grupo-ti"] });
    const { location, token } = await signInThroughProvider(server.url, "joao");
    expect(location).toBe("/auth?sso_error=conflict");
    expect(token).toBeUndefined();
    expect((await findUser(server.db, "joao@b1.example.com"))?.fullName).toBe("João");
    expect(await roleNames((await findUser(server.db, "joao@b1.example.com"))!.id)).toEqual(["visualizador"]);
  });

  it("callbacks racing for one new address make one account: the same sub signs in every time, another sub is refused", async () => {
    provider.identities.set("paralela", { email: "paralela@b1.example.com", email_verified: true, name: "Paralela", groups: [] });
    provider.identities.set("paralela-falsa", {
      email: "PARALELA@b1.example.com",
      email_verified: true,
      name: "Falsa",
      groups: ["grupo-ti"],
    });
    const trips = await Promise.all(
      ["paralela", "paralela", "paralela-falsa", "paralela", "paralela-falsa"].map((login) => signInAtProvider(server.url, login)),
    );
    const answers = await Promise.all(trips.map((trip) => returnToPortal(trip)));
    const locations = answers.map((answer) => answer.headers.get("location"));
    const account = (await findUser(server.db, "paralela@b1.example.com"))!;
    const owners = await Promise.all(trips.map((trip) => sessionOwner(server.db, trip.portal.get("b1_session"))));
    // Whichever sub came first owns the address; every callback of the other sub is refused.
    const winner = locations[0] === "/" ? [0, 1, 3] : [2, 4];
    const loser = winner.length === 3 ? [2, 4] : [0, 1, 3];
    for (const index of winner) {
      expect(locations[index]).toBe("/");
      expect(owners[index]).toBe(account.id);
    }
    for (const index of loser) expect(locations[index]).toBe("/auth?sso_error=conflict");
    expect(await roleNames(account.id)).toEqual(winner.length === 3 ? ["visualizador"] : ["admin"]);
  });
});

describe("pending accounts expire", () => {
  it("a sign-up never confirmed for 7 days is purged when the portal starts, audited in the chain; younger and confirmed ones stay", async () => {
    const now = Date.now();
    const account = (email: string, confirmed: boolean, age: number) =>
      createUser(
        server.db,
        { email, fullName: "Pessoa Antiga", password: ATTACKER_PASSWORD, roleNames: ["visualizador"], confirmed },
        undefined,
        now - age,
      );
    const stale = await account("pendente-velha@b1.example.com", false, SEVEN_DAYS + 60_000);
    await account("pendente-nova@b1.example.com", false, SEVEN_DAYS - 60 * 60_000);
    await account("confirmada-antiga@b1.example.com", true, 5 * SEVEN_DAYS);
    expect(stale.ok).toBe(true);

    await restartPortal(provider.issuer);

    expect(await findUser(server.db, "pendente-velha@b1.example.com")).toBeNull();
    expect((await signIn("pendente-velha@b1.example.com", ATTACKER_PASSWORD)).status).toBe(401);
    expect((await signIn("pendente-nova@b1.example.com", ATTACKER_PASSWORD)).status).toBe(403);
    expect((await signIn("confirmada-antiga@b1.example.com", ATTACKER_PASSWORD)).status).toBe(200);
    const purged = (await auditRows(server.db, "user_pending_purged")).filter((row) => row.userId === (stale.ok ? stale.userId : ""));
    expect(purged).toHaveLength(1);
    expect(purged[0]!.details).toMatchObject({ email: "pendente-velha@b1.example.com", reason: "expired", max_age_days: 7 });
    expect(await verifyAuditChain(server.db)).toMatchObject({ ok: true });

    // The address is free again: a new sign-up gets a confirmation link of its own, not the old account's.
    expect((await signUp("pendente-velha@b1.example.com", "Senha@Nova12")).status).toBe(201);
    await waitForLink(path.join(server.dataDir, "outbox"), "pendente-velha@b1.example.com", "/api/auth/confirm");
  });
});

describe("another issuer", () => {
  it("presenting an address linked at the first issuer (even with the same sub) is refused, never merged", async () => {
    const katia = (await findUser(server.db, "katia.lima@b1.example.com"))!;
    const other = await startTestProvider(`http://127.0.0.1:${port}`, {
      katia: { email: "katia.lima@b1.example.com", email_verified: true, name: "Katia Outra", groups: ["grupo-ti"] },
    });
    await restartPortal(other.issuer);
    try {
      const { location, token } = await signInThroughProvider(server.url, "katia");
      expect(location).toBe("/auth?sso_error=conflict");
      expect(token).toBeUndefined();
      expect((await findUser(server.db, "katia.lima@b1.example.com"))?.fullName).toBe(katia.fullName);
      expect((await auditRows(server.db, "sso_identity_conflict")).at(-1)?.details).toMatchObject({
        issuer: other.issuer,
        subject: "katia",
        error: "linked_to_other_identity",
      });

      // The administrator's remedy after a real change of provider: unlink, and the next sign-in links the same account anew.
      const unlink = await runUserCli(["sso-unlink", "--email", "Katia.Lima@b1.example.com"], server.databaseEnv);
      expect(unlink.code, unlink.output).toBe(0);
      expect((await auditRows(server.db, "sso_identity_unlinked")).at(-1)?.details).toMatchObject({
        via: "cli",
        user_id: katia.id,
        issuer: provider.issuer,
        subject: "katia",
      });
      const again = await signInThroughProvider(server.url, "katia");
      expect(again.location).toBe("/");
      expect(await sessionOwner(server.db, again.token)).toBe(katia.id);
      expect(await roleNames(katia.id)).toContain("admin");
    } finally {
      await other.stop();
    }
  });
});
