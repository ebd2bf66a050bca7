// One file over 200 lines on purpose: the provider and the portals are started once for all these cases (each start costs seconds).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { auditLogs, roles, sessions, userRoles, users } from "../../../../db/schema/index";
import { updateUserAsAdmin } from "../../../../src/lib/server/admin/users";
import { createUser } from "../../../../src/lib/server/auth/user";
import { SSO_ERROR_MESSAGES } from "../../../../src/lib/auth/sso-messages";
import { freePort, startTestProvider, TEST_CLIENT, type TestProvider } from "../../../support/oidc-provider";
import { CookieJar, returnToPortal, signInAtProvider } from "../../../support/oidc-browser";
import { startBuiltServer, type RunningServer } from "../../../support/server";

let provider: TestProvider;
let server: RunningServer;

const IDENTITIES = {
  ana: { email: "ana.sso@b1.example.com", email_verified: true, name: "Ana Corporativa", groups: ["grupo-ti"] },
  bruno: { email: "bruno.sso@b1.example.com", email_verified: true, name: "Bruno Líder", groups: ["lideres", "sem-mapa"] },
  carla: { email: "carla.sso@b1.example.com", email_verified: true, name: "Carla Senha", groups: [] },
  davi: { email: "davi.sso@b1.example.com", email_verified: false, name: "Davi", groups: [] },
  intrusa: { email: "intrusa@fora.example.org", email_verified: true, name: "Intrusa", groups: ["grupo-ti"] },
};

async function portalFor(providerIssuer: string | null, extra: Record<string, string> = {}) {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  return { port, url, env: { PORT: String(port), PUBLIC_URL: url, RATE_LIMIT_MULTIPLIER: "100", ...extra, ...ssoEnv(providerIssuer) } };
}

function ssoEnv(issuer: string | null): Record<string, string> {
  if (!issuer) return {};
  return {
    OIDC_ISSUER: issuer,
    OIDC_CLIENT_ID: TEST_CLIENT.id,
    OIDC_CLIENT_SECRET: TEST_CLIENT.secret,
    OIDC_ROLE_MAP: "grupo-ti:admin,lideres:lider",
    OIDC_LOGOUT: "true",
  };
}

const userByEmail = async (email: string) => (await server.db.select().from(users).where(eq(users.email, email)))[0]!;
const rolesOf = async (userId: string) =>
  (
    await server.db
      .select({ name: roles.name, source: userRoles.source })
      .from(userRoles)
      .innerJoin(roles, eq(roles.id, userRoles.roleId))
      .where(eq(userRoles.userId, userId))
  ).sort((a, b) => a.name.localeCompare(b.name));
const audits = async (action: string) =>
  (await server.db.select().from(auditLogs).where(eq(auditLogs.actionType, action))).map((row) => ({
    ...row,
    details: JSON.parse(row.actionDetails ?? "null") as Record<string, unknown> | null,
  }));
const sessionCount = async () => (await server.db.select().from(sessions)).length;

/** The whole round trip; returns the portal's final answer to the callback. */
async function signInAs(login: string, next = "/") {
  const roundTrip = await signInAtProvider(server.url, login, next);
  const response = await returnToPortal(roundTrip);
  return { response, roundTrip, location: response.headers.get("location") };
}

beforeAll(async () => {
  const portal = await portalFor(null);
  provider = await startTestProvider(portal.url, IDENTITIES);
  server = await startBuiltServer({ ...portal.env, ...ssoEnv(provider.issuer) });
});
afterAll(async () => {
  await server?.stop();
  await provider?.stop();
});

describe("corporate sign-in (OpenID Connect, real provider on loopback)", () => {
  it("first sign-in creates a confirmed user with the name and mapped role, opens a session and lands on next", async () => {
    const { response, roundTrip, location } = await signInAs("ana", "/admin-panel");
    expect(response.status).toBe(302);
    expect(location).toBe("/admin-panel");
    const token = roundTrip.portal.get("b1_session");
    expect(token).toBeTruthy();
    expect(roundTrip.portal.get("b1_oidc_state")).toBeUndefined();
    // A full sign-in: the browser is remembered for the account's throttling budgets.
    expect(roundTrip.portal.get("b1_device")).toMatch(/^[a-z2-7]{32}$/);

    const user = await userByEmail("ana.sso@b1.example.com")!;
    expect(user.fullName).toBe("Ana Corporativa");
    expect(user.emailConfirmedAt).not.toBeNull();
    expect(await rolesOf(user.id)).toEqual([{ name: "admin", source: "oidc" }]);

    const page = await fetch(`${server.url}/admin-panel`, { headers: { cookie: `b1_session=${token}` }, redirect: "manual" });
    expect(page.status).toBe(200);

    const success = (await audits("sso_login_success")).filter((row) => row.userId === user.id);
    expect(success).toHaveLength(1);
    expect(success[0]!.details).toMatchObject({ email: user.email, created: true, roles: ["admin"] });
    expect((await audits("sso_roles_updated")).find((row) => row.userId === user.id)?.details).toMatchObject({
      before: [],
      after: ["admin"],
    });
  });

  it("a later sign-in updates the name and audits no role change when the groups did not change", async () => {
    provider.identities.set("ana", { ...IDENTITIES.ana, name: "Ana Souza Corporativa" });
    const { location } = await signInAs("ana");
    expect(location).toBe("/");
    const user = await userByEmail("ana.sso@b1.example.com")!;
    expect(user.fullName).toBe("Ana Souza Corporativa");
    expect((await audits("sso_roles_updated")).filter((row) => row.userId === user.id)).toHaveLength(1);
    expect((await audits("sso_login_success")).filter((row) => row.userId === user.id)).toHaveLength(2);
  });

  it("mapped roles are replaced at each sign-in; roles given in the panel are kept, also across a panel edit", async () => {
    await signInAs("bruno");
    const bruno = await userByEmail("bruno.sso@b1.example.com")!;
    expect(await rolesOf(bruno.id)).toEqual([{ name: "lider", source: "oidc" }]);

    // An admin renames Bruno and adds 'security' by hand, keeping the mapped 'lider' ticked.
    const admin = await userByEmail("ana.sso@b1.example.com")!;
    const edit = await updateUserAsAdmin(
      server.db,
      bruno.id,
      { fullName: "Bruno (editado)", roles: ["lider", "security"] },
      { userId: admin.id },
    );
    expect(edit.ok).toBe(true);
    expect(await rolesOf(bruno.id)).toEqual([
      { name: "lider", source: "oidc" },
      { name: "security", source: "manual" },
    ]);

    // Bruno leaves the leaders' group at the provider: 'lider' goes, 'security' stays, no Visualizador added.
    provider.identities.set("bruno", { ...IDENTITIES.bruno, groups: ["sem-mapa"] });
    await signInAs("bruno");
    expect(await rolesOf(bruno.id)).toEqual([{ name: "security", source: "manual" }]);
    const change = (await audits("sso_roles_updated")).filter((row) => row.userId === bruno.id).at(-1);
    expect(change?.details).toMatchObject({ before: ["lider"], after: [], manual: ["security"] });
  });

  it("links to an existing password account with the same verified e-mail, confirming it", async () => {
    const created = await createUser(server.db, {
      email: "carla.sso@b1.example.com",
      fullName: "Carla",
      password: "Senha@Forte1",
      roleNames: ["visualizador"],
      confirmed: false,
    });
    expect(created.ok).toBe(true);
    const { location } = await signInAs("carla");
    expect(location).toBe("/");
    const carla = await userByEmail("carla.sso@b1.example.com")!;
    expect(carla.id).toBe(created.ok ? created.userId : "");
    expect(carla.fullName).toBe("Carla Senha");
    expect(carla.emailConfirmedAt).not.toBeNull();
    expect(await rolesOf(carla.id)).toEqual([{ name: "visualizador", source: "manual" }]);
  });

  it("refuses an unauthorised domain: no user, no session, audited, clear message on /auth", async () => {
    const before = await sessionCount();
    const { location, roundTrip } = await signInAs("intrusa");
    expect(location).toBe("/auth?sso_error=domain");
    expect(roundTrip.portal.get("b1_session")).toBeUndefined();
    expect(await userByEmail("intrusa@fora.example.org")).toBeUndefined();
    expect(await sessionCount()).toBe(before);
    expect((await audits("sso_domain_refused")).at(-1)?.details).toMatchObject({
      email: "intrusa@fora.example.org",
      error: "invalid_domain",
    });
    expect(SSO_ERROR_MESSAGES.domain).toMatch(/domínio não autorizado/);
  });

  it("refuses an e-mail the provider has not verified", async () => {
    const { location } = await signInAs("davi");
    expect(location).toBe("/auth?sso_error=email");
    expect(await userByEmail("davi.sso@b1.example.com")).toBeUndefined();
    expect((await audits("sso_email_unverified")).at(-1)?.details).toMatchObject({ email: "davi.sso@b1.example.com" });
  });

  it("refuses a tampered state, a callback without this browser's state cookie, and a replayed callback", async () => {
    const before = await sessionCount();
    const invalidBefore = (await audits("sso_invalid_state")).length;

    const tampered = await signInAtProvider(server.url, "ana");
    const url = new URL(tampered.callbackUrl);
    url.searchParams.set(
      "state",
      url.searchParams.get("state")!.replace(/.$/, (c) => (c === "A" ? "B" : "A")),
    );
    const tamperedResponse = await returnToPortal(tampered, url.href);
    expect(tamperedResponse.headers.get("location")).toBe("/auth?sso_error=state");

    // Login CSRF: the victim's browser follows a callback it never started.
    const foreign = await signInAtProvider(server.url, "ana");
    const noCookie = await returnToPortal({ ...foreign, portal: new CookieJar() });
    expect(noCookie.headers.get("location")).toBe("/auth?sso_error=state");

    // Cookie tossing: a sibling subdomain planted a state cookie beside this browser's own; neither is picked.
    const tossed = await signInAtProvider(server.url, "ana");
    const twoCookies = await fetch(tossed.callbackUrl, {
      headers: { cookie: `b1_oidc_state=${tossed.portal.get("b1_oidc_state")}; b1_oidc_state=plantado` },
      redirect: "manual",
    });
    expect(twoCookies.headers.get("location")).toBe("/auth?sso_error=state");
    expect((await audits("sso_invalid_state")).at(-1)?.details).toEqual({ error: "state_cookie_conflict" });

    // The same callback twice: the first signs in, the second finds its state used.
    const once = await signInAtProvider(server.url, "ana");
    const jar = once.portal.header();
    expect((await returnToPortal(once)).headers.get("location")).toBe("/");
    const replay = await fetch(once.callbackUrl, { headers: { cookie: jar }, redirect: "manual" });
    expect(replay.headers.get("location")).toBe("/auth?sso_error=state");

    expect(await sessionCount()).toBe(before + 1);
    expect((await audits("sso_invalid_state")).length).toBe(invalidBefore + 4);
  });

  it("refuses a replayed authorization code presented with a fresh state of the attacker's own", async () => {
    const victim = await signInAtProvider(server.url, "ana");
    expect((await returnToPortal(victim)).headers.get("location")).toBe("/");
    const stolenCode = new URL(victim.callbackUrl).searchParams.get("code")!;

    const attacker = await signInAtProvider(server.url, "bruno");
    const forged = new URL(attacker.callbackUrl);
    forged.searchParams.set("code", stolenCode);
    const before = await sessionCount();
    const response = await returnToPortal(attacker, forged.href);
    expect(response.headers.get("location")).toBe("/auth?sso_error=provider");
    expect(await sessionCount()).toBe(before);
    expect((await audits("sso_provider_error")).at(-1)?.details).toMatchObject({ step: "callback", error: "invalid_grant" });
  });

  it("'Sair' after a corporate sign-in ends our session and sends the browser to the provider's end-session endpoint", async () => {
    const { roundTrip } = await signInAs("ana");
    const token = roundTrip.portal.get("b1_session")!;
    const response = await fetch(`${server.url}/api/auth/sign-out`, {
      method: "POST",
      headers: { origin: server.url, cookie: roundTrip.portal.header() },
      redirect: "manual",
    });
    expect(response.status).toBe(303);
    const location = new URL(response.headers.get("location")!);
    expect(location.origin).toBe(provider.issuer);
    expect(location.searchParams.get("client_id")).toBe(TEST_CLIENT.id);
    expect(location.searchParams.get("post_logout_redirect_uri")).toBe(`${server.url}/`);
    const after = await fetch(`${server.url}/faq`, { headers: { cookie: `b1_session=${token}` }, redirect: "manual" });
    expect(after.status).toBe(302);
  });

  it("/auth offers the corporate button above the password form", async () => {
    const html = await (await fetch(`${server.url}/auth`)).text();
    expect(html).toContain('href="/api/auth/oidc/login"');
    expect(html).toContain("Entrar com a conta corporativa");
    expect(html).toContain("ou entre com e-mail e senha");
    expect(html.indexOf("/api/auth/oidc/login")).toBeLessThan(html.indexOf("<astro-island"));
  });
});

const EMERGENCY = { email: "emergencia@b1.example.com", password: "Senha@Forte1" };

describe("AUTH_PASSWORD=false", () => {
  let ssoOnly: RunningServer;
  let ssoOnlyProvider: TestProvider;

  beforeAll(async () => {
    const portal = await portalFor(null, { AUTH_PASSWORD: "false", OIDC_BUTTON_LABEL: "Entrar com a <Conta B1>" });
    ssoOnlyProvider = await startTestProvider(portal.url, IDENTITIES);
    ssoOnly = await startBuiltServer({ ...portal.env, ...ssoEnv(ssoOnlyProvider.issuer) });
    // An emergency admin from the CLI's code path: the only way a password exists here.
    const created = await createUser(ssoOnly.db, {
      email: EMERGENCY.email,
      fullName: "Admin",
      password: EMERGENCY.password,
      roleNames: ["admin"],
      confirmed: true,
    });
    expect(created.ok).toBe(true);
  });
  afterAll(async () => {
    await ssoOnly?.stop();
    await ssoOnlyProvider?.stop();
  });

  it("serves /auth without the password form, with the configured label escaped", async () => {
    const html = await (await fetch(`${ssoOnly.url}/auth`)).text();
    expect(html).toContain("Entrar com a &#60;Conta B1&#62;");
    expect(html).not.toContain("<astro-island");
    expect(html).not.toContain("ou entre com e-mail e senha");
    expect(html).toContain("B1 Method Hub");
  });

  it.each(["sign-in", "sign-up", "reset-request", "update-password", "resend-link"])(
    "answers 403 on /api/auth/%s and changes nothing",
    async (endpoint) => {
      const { email, password } = EMERGENCY;
      const before = (await ssoOnly.db.select().from(sessions)).length;
      const response = await fetch(`${ssoOnly.url}/api/auth/${endpoint}`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: ssoOnly.url },
        body: JSON.stringify({ email, password, fullName: "X Y", confirmPassword: password, token: "x" }),
      });
      expect(response.status).toBe(403);
      expect(await response.json()).toMatchObject({ code: "password_auth_disabled", error: expect.stringMatching(/desativado/) });
      expect((await ssoOnly.db.select().from(sessions)).length).toBe(before);
      expect(await ssoOnly.db.select().from(auditLogs).where(eq(auditLogs.actionType, "user_login_success"))).toEqual([]);
    },
  );
});

describe("provider unreachable", () => {
  let lonely: RunningServer;

  beforeAll(async () => {
    const closedPort = await freePort();
    const portal = await portalFor(`http://127.0.0.1:${closedPort}`);
    lonely = await startBuiltServer(portal.env);
  });
  afterAll(() => lonely?.stop());

  it("sends the browser back to /auth with a clear message and audits the failed discovery, without a stack trace", async () => {
    const response = await fetch(`${lonely.url}/api/auth/oidc/login`, { redirect: "manual" });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/auth?sso_error=unavailable");
    const rows = await lonely.db.select().from(auditLogs).where(eq(auditLogs.actionType, "sso_provider_error"));
    expect(rows).toHaveLength(1);
    expect(JSON.parse(rows[0]!.actionDetails!)).toMatchObject({ step: "discovery" });
    expect(rows[0]!.actionDetails).not.toMatch(/\n\s+at /);
  });
});
