/**
 * Whoever holds SCIM_TOKEN manages the accounts the directory made, within OIDC_ROLE_MAP, and
 * nothing more: an account made by hand (password, second factor, a role given by hand) or one with
 * an admin or security role is never adopted, re-keyed, renamed, deactivated or deleted by the
 * directory (403 and a `blocked` audit row), unless an administrator links it in the panel; the
 * directory's `externalId` opens only accounts the directory created; an account with a second
 * factor is asked for it after corporate sign-in unless the provider asserts MFA in a claim the
 * operator configured and corporate sign-in made the account; both engines.
 */
import { totp } from "../../support/totp";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { roles, sessions, userRoles, users } from "../../../db/schema/index";
import { freePort, startTestProvider, type TestProvider } from "../../support/oidc-provider";
import { returnToPortal, signInAtProvider } from "../../support/oidc-browser";
import { startBuiltServer, type RunningServer } from "../../support/server";
import { auditRows, findUser, sessionOwner, signInThroughProvider, ssoEnv } from "../../support/sso-portal";
import { scim, SCIM_TOKEN } from "../../support/scim";
import { createTestUser, type TestUser } from "../../support/users";
import { createUser } from "../../../src/lib/server/auth/user";
import { createSession } from "../../../src/lib/server/sessions/session";

const USER = "urn:ietf:params:scim:schemas:core:2.0:User";
const GROUP = "urn:ietf:params:scim:schemas:core:2.0:Group";
const PATCH = "urn:ietf:params:scim:api:messages:2.0:PatchOp";
const ERROR = "urn:ietf:params:scim:api:messages:2.0:Error";
const TWO_FACTOR_KEY = "d".repeat(64);

describe("SCIM never takes over an account it does not manage", () => {
  let provider: TestProvider;
  let server: RunningServer;
  let admin: TestUser;

  const api = (method: string, path: string, token: string, body?: unknown) =>
    fetch(`${server.url}${path}`, {
      method,
      redirect: "manual",
      headers: { cookie: `b1_session=${token}`, origin: server.url, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  /** Enrols a second factor through the account page with the user's (fresh) session; the key shown. */
  async function enrol(token: string): Promise<string> {
    const begun = await api("POST", "/api/conta/dois-fatores", token, {});
    expect(begun.status).toBe(200);
    const { manualKey } = (await begun.json()) as { manualKey: string };
    expect((await api("PUT", "/api/conta/dois-fatores", token, { code: totp(manualKey, 0) })).status).toBe(200);
    return manualKey;
  }

  const idOf = async (email: string) => (await scim(server, "GET", `/Users?filter=userName eq "${email}"`)).body!.Resources[0].id as string;

  async function rolesOf(userId: string) {
    return (
      await server.db
        .select({ name: roles.name, source: userRoles.source })
        .from(userRoles)
        .innerJoin(roles, eq(roles.id, userRoles.roleId))
        .where(eq(userRoles.userId, userId))
    ).sort((a, b) => a.name.localeCompare(b.name));
  }

  const blockedRowsFor = async (userId: string) =>
    (await auditRows(server.db, "scim_user_blocked")).filter((row) => row.details?.user_id === userId);

  beforeAll(async () => {
    const port = await freePort();
    provider = await startTestProvider(`http://127.0.0.1:${port}`, {
      "00u-mallory": { email: "mallory@b1.example.com", email_verified: true, name: "Mallory Silva", groups: [] },
      "00u-tiago": { email: "tiago.novo@b1.example.com", email_verified: true, name: "Tiago Reis", groups: [] },
      "00u-ana": { email: "ana@b1.example.com", email_verified: true, name: "Ana Prado", groups: [] },
      "00u-caio": { email: "caio@b1.example.com", email_verified: true, name: "Caio Mota", groups: [], acr: "urn:teste:mfa" },
    });
    server = await startBuiltServer({
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      RATE_LIMIT_MULTIPLIER: "100",
      SCIM_TOKEN,
      TWO_FACTOR_KEY,
      OIDC_MFA_ACR: "urn:teste:mfa",
      OIDC_MFA_AMR: "mfa",
      ...ssoEnv(provider.issuer),
      OIDC_ROLE_MAP: "grupo-ti:admin,lideres:lider",
    });
    admin = await createTestUser(server.db, ["admin"], "admin-painel");
    // Admin roles need a second factor on this portal: the panel's session is a two-factor one.
    admin.token = (await createSession(server.db, admin.id, { authMethod: "two_factor" })).token;
  });
  afterAll(async () => {
    await server?.stop();
    await provider?.stop();
  });

  it("a hand-made admin with TOTP: the directory's PUT, PATCH and DELETE are 403 and audited as blocked; corporate sign-in with the planted sub opens nothing of it", async () => {
    const victim = await createTestUser(server.db, ["admin"], "admin-totp");
    await enrol(victim.token);
    const id = await idOf(victim.email);
    expect(id).toBe(victim.id);

    const put = await scim(server, "PUT", `/Users/${id}`, {
      schemas: [USER],
      userName: victim.email,
      externalId: "00u-mallory",
      active: true,
    });
    expect(put.status).toBe(403);
    expect(put.body).toEqual({ schemas: [ERROR], status: "403", detail: expect.stringContaining("administrador ou de segurança") });
    const patch = await scim(server, "PATCH", `/Users/${id}`, {
      schemas: [PATCH],
      Operations: [{ op: "replace", value: { externalId: "00u-mallory", active: false } }],
    });
    expect(patch.status).toBe(403);
    expect((await scim(server, "DELETE", `/Users/${id}`)).status).toBe(403);

    const row = (await findUser(server.db, victim.email))!;
    expect(row).toMatchObject({ externalId: null, provisionedAt: null, deactivatedAt: null, oidcSubject: null });
    const blocked = await blockedRowsFor(id);
    expect(blocked.map((entry) => [entry.result, entry.details?.operation, entry.details?.reason])).toEqual([
      ["blocked", "replace", "privileged_role"],
      ["blocked", "patch", "privileged_role"],
      ["blocked", "delete", "privileged_role"],
    ]);
    expect(blocked.every((entry) => entry.details?.actor === "directory")).toBe(true);

    const { token } = await signInThroughProvider(server.url, "00u-mallory");
    const owner = await sessionOwner(server.db, token);
    expect(owner).not.toBeNull();
    expect(owner).not.toBe(victim.id);
    expect((await findUser(server.db, victim.email))!.email).toBe(victim.email);
  });

  it("a hand-made account with a password is refused until an administrator links it in the panel (audited); then the directory manages it", async () => {
    const person = await createTestUser(server.db, ["visualizador"], "feita-a-mao");
    const id = await idOf(person.email);
    const refused = await scim(server, "PATCH", `/Users/${id}`, {
      schemas: [PATCH],
      Operations: [{ op: "Replace", path: "active", value: "False" }],
    });
    expect(refused.status).toBe(403);
    expect(refused.body!.detail).toContain("vinculá-la ao diretório no painel");
    expect((await blockedRowsFor(id)).map((entry) => entry.details?.reason)).toEqual(["not_directory_managed"]);
    expect((await findUser(server.db, person.email))!.deactivatedAt).toBeNull();

    const notAdmin = await api("POST", `/api/admin/users/${id}/directory`, person.token);
    expect(notAdmin.status).toBe(403);
    const linked = await api("POST", `/api/admin/users/${id}/directory`, admin.token);
    expect(linked.status).toBe(200);
    expect((await api("POST", `/api/admin/users/${id}/directory`, admin.token)).status).toBe(409);
    const rows = (await auditRows(server.db, "admin_user_directory_linked")).filter((row) => row.details?.targetUserId === id);
    expect(rows).toEqual([expect.objectContaining({ userId: admin.id, result: "success" })]);

    const off = await scim(server, "PATCH", `/Users/${id}`, {
      schemas: [PATCH],
      Operations: [{ op: "Replace", path: "active", value: "False" }],
    });
    expect(off.status).toBe(200);
    expect(off.body!.active).toBe(false);
  });

  it("an admin the panel refuses to link: an admin or security account stays the portal's", async () => {
    const security = await createTestUser(server.db, ["security"], "seguranca");
    const refused = await api("POST", `/api/admin/users/${security.id}/directory`, admin.token);
    expect(refused.status).toBe(409);
    expect((await findUser(server.db, security.email))!.provisionedAt).toBeNull();
  });

  it("externalId opens only an account the directory created: one an admin linked keeps its own sign-in", async () => {
    const person = await createTestUser(server.db, ["visualizador"], "tiago");
    expect((await api("POST", `/api/admin/users/${person.id}/directory`, admin.token)).status).toBe(200);
    const put = await scim(server, "PUT", `/Users/${person.id}`, {
      schemas: [USER],
      userName: person.email,
      externalId: "00u-tiago",
      active: true,
    });
    expect(put.status).toBe(200);
    const { token } = await signInThroughProvider(server.url, "00u-tiago");
    const owner = await sessionOwner(server.db, token);
    expect(owner).not.toBeNull();
    expect(owner).not.toBe(person.id);
    expect((await findUser(server.db, person.email))!).toMatchObject({ email: person.email, oidcSubject: null });
  });

  it("GET /Users lists only directory-managed accounts; an exact userName lookup still finds any account", async () => {
    const handMade = await createTestUser(server.db, ["visualizador"], "lista");
    const created = await scim(server, "POST", "/Users", {
      schemas: [USER],
      userName: "gerida-lista@b1.example.com",
      externalId: "lista-1",
    });
    expect(created.status).toBe(201);
    const all = await scim(server, "GET", "/Users?count=200");
    const listed = all.body!.Resources.map((user: { id: string }) => user.id);
    expect(listed).toContain(created.body!.id);
    expect(listed).not.toContain(handMade.id);
    expect(listed).not.toContain(admin.id);
    expect(all.body!.totalResults).toBe(listed.length);
    expect((await scim(server, "GET", `/Users?filter=userName eq "${handMade.email}"`)).body!.totalResults).toBe(1);
    expect((await scim(server, "GET", `/Users?filter=emails[type eq "work"].value eq "${handMade.email}"`)).body!.totalResults).toBe(0);
    expect((await scim(server, "GET", `/Users?filter=id eq "${handMade.id}"`)).body!.totalResults).toBe(0);
    // A create for the address gets 409 as before; the directory then finds the account but cannot adopt it.
    expect((await scim(server, "POST", "/Users", { schemas: [USER], userName: handMade.email })).status).toBe(409);
  });

  it("a group adding a protected account skips it like an unknown member, audited as blocked; its roles stay", async () => {
    const person = await createTestUser(server.db, ["visualizador"], "grupo-mao");
    const boss = await createTestUser(server.db, ["admin"], "grupo-admin");
    const group = await scim(server, "POST", "/Groups", { schemas: [GROUP], displayName: "lideres", members: [{ value: person.id }] });
    expect(group.status).toBe(201);
    expect(group.body!.members).toEqual([]);
    const add = await scim(server, "PATCH", `/Groups/${group.body!.id}`, {
      schemas: [PATCH],
      Operations: [{ op: "Add", path: "members", value: [{ value: boss.id }, { value: person.id }] }],
    });
    expect(add.status).toBe(204);
    expect((await scim(server, "GET", `/Groups/${group.body!.id}`)).body!.members).toEqual([]);
    expect(await rolesOf(person.id)).toEqual([{ name: "visualizador", source: "manual" }]);
    expect(await rolesOf(boss.id)).toEqual([{ name: "admin", source: "manual" }]);
    expect((await blockedRowsFor(person.id)).map((row) => [row.details?.operation, row.details?.reason])).toEqual([
      ["group_membership", "not_directory_managed"],
      ["group_membership", "not_directory_managed"],
    ]);
    expect((await blockedRowsFor(boss.id)).map((row) => [row.details?.operation, row.details?.reason])).toEqual([
      ["group_membership", "privileged_role"],
    ]);
  });

  it("an account the directory created but an admin made admin by hand is no longer the directory's to change", async () => {
    const created = await scim(server, "POST", "/Users", {
      schemas: [USER],
      userName: "promovida@b1.example.com",
      externalId: "promovida-1",
      displayName: "Pessoa Promovida",
    });
    const id = created.body!.id as string;
    const { fullName } = (await findUser(server.db, "promovida@b1.example.com"))!;
    const edit = await api("PUT", `/api/admin/users/${id}`, admin.token, { fullName, roles: ["admin"] });
    expect(edit.status).toBe(200);
    const off = await scim(server, "PATCH", `/Users/${id}`, {
      schemas: [PATCH],
      Operations: [{ op: "replace", value: { active: false } }],
    });
    expect(off.status).toBe(403);
    expect((await blockedRowsFor(id)).map((row) => row.details?.reason)).toEqual(["privileged_role"]);
  });

  it("corporate sign-in of an account with TOTP asks for the code (no session before it); with MFA asserted by the provider (amr) it does not", async () => {
    const made = await createUser(server.db, {
      email: "ana@b1.example.com",
      fullName: "Ana Prado",
      password: "Senha@Teste1",
      roleNames: ["lider"],
      confirmed: true,
    });
    if (!made.ok) throw new Error(made.error);
    const { token: own } = await createSession(server.db, made.userId);
    const manualKey = await enrol(own);

    const roundTrip = await signInAtProvider(server.url, "00u-ana", "/faq");
    const back = await returnToPortal(roundTrip);
    expect(back.status).toBe(302);
    expect(back.headers.get("location")).toBe("/dois-fatores");
    expect(roundTrip.portal.get("b1_session")).toBeUndefined();
    const challenge = roundTrip.portal.get("b1_2fa");
    expect(challenge).toBeTruthy();
    // The browser is marked as come from the provider already, so that 'Sair' after the code ends the provider's session too.
    expect(roundTrip.portal.get("b1_sso")).toBe("1");
    expect(await auditRows(server.db, "sso_second_factor_required")).toEqual([
      expect.objectContaining({
        userId: made.userId,
        // Linked only once the code is right (issue 62): an identity that only passed the provider binds nothing.
        details: expect.objectContaining({ email: "ana@b1.example.com", linked: false, link: "after_second_factor" }),
      }),
    ]);
    expect(await findUser(server.db, "ana@b1.example.com")).toMatchObject({ oidcSubject: null });

    const code = await fetch(`${server.url}/api/auth/two-factor`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: server.url, cookie: `b1_2fa=${challenge}` },
      body: JSON.stringify({ code: totp(manualKey, 1) }),
    });
    expect(code.status).toBe(200);
    expect(await code.json()).toMatchObject({ next: "/faq" });
    const session = code.headers
      .getSetCookie()
      .find((line) => line.startsWith("b1_session="))!
      .split(";")[0]!
      .slice("b1_session=".length);
    expect(await sessionOwner(server.db, session)).toBe(made.userId);
    const [row] = await server.db
      .select({ authMethod: sessions.authMethod })
      .from(sessions)
      .where(eq(sessions.id, session.split(".")[0]!));
    expect(row!.authMethod).toBe("two_factor");
    expect(await findUser(server.db, "ana@b1.example.com")).toMatchObject({ oidcSubject: "00u-ana" });

    // The same provider asserting MFA in the `amr` OIDC_MFA_AMR lists still gets the code asked: the account was made by hand (issue 62).
    provider.identities.get("00u-ana")!.amr = ["pwd", "mfa"];
    const again = await signInThroughProvider(server.url, "00u-ana");
    expect(again.token).toBeUndefined();
    expect(again.location).toBe("/dois-fatores");
  });

  it("on an account corporate sign-in made, an acr the portal was told means MFA is enough, and an amr of password alone is not", async () => {
    const first = await signInThroughProvider(server.url, "00u-caio");
    const userId = (await sessionOwner(server.db, first.token))!;
    expect(userId).toBeTruthy();
    await enrol((await createSession(server.db, userId)).token);
    const { token } = await signInThroughProvider(server.url, "00u-caio");
    expect(await sessionOwner(server.db, token)).toBe(userId);

    const caio = provider.identities.get("00u-caio")!;
    caio.acr = "urn:teste:senha";
    caio.amr = ["pwd"];
    const second = await signInThroughProvider(server.url, "00u-caio");
    expect(second.token).toBeUndefined();
    expect(second.location).toBe("/dois-fatores");
  });
});
