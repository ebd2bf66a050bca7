/**
 * The requests Microsoft Entra ID's provisioning service sends, in the order and shapes of
 * Microsoft's "Develop and plan provisioning for a SCIM endpoint" tutorial and its validator
 * (capitalised ops, `emails[type eq "work"].value`, `active` as the string "False", encoded quotes,
 * `excludedAttributes=members`), on the built server; both engines.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBuiltServer, type RunningServer } from "../../support/server";
import { scim } from "../../support/scim";
import { linkToDirectory, SCIM_TOKEN } from "../../support/scim";
import { createTestUser } from "../../support/users";

const USER = "urn:ietf:params:scim:schemas:core:2.0:User";
const ENTERPRISE = "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User";
const PATCH = "urn:ietf:params:scim:api:messages:2.0:PatchOp";
const ERROR = "urn:ietf:params:scim:api:messages:2.0:Error";

describe("SCIM: Microsoft Entra ID's request sequence", () => {
  let server: RunningServer;
  let userId = "";
  const userName = `Test_User_ab6490ee@b1.example.com`;

  beforeAll(async () => {
    server = await startBuiltServer({ SCIM_TOKEN, OIDC_ROLE_MAP: "Portal Admins:admin,lideres-b1:lider" });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("looks the person up first by userName with encoded quotes, case-insensitively: none yet", async () => {
    const response = await scim(server, "GET", `/Users?filter=userName+eq+%22${encodeURIComponent(userName.toUpperCase())}%22`);
    expect(response.status).toBe(200);
    expect(response.contentType).toMatch(/^application\/scim\+json/);
    expect(response.body).toMatchObject({ totalResults: 0, Resources: [], startIndex: 1 });
  });

  it("creates the user: 201 with Location and meta", async () => {
    const response = await scim(server, "POST", "/Users", {
      schemas: [USER, ENTERPRISE],
      externalId: "0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef",
      userName,
      active: true,
      emails: [{ primary: true, type: "work", value: userName }],
      meta: { resourceType: "User" },
      name: { formatted: "Sandy Nia", familyName: "Nia", givenName: "Sandy" },
      roles: [],
      [ENTERPRISE]: { employeeNumber: "701984", department: "Vendas" },
    });
    expect(response.status).toBe(201);
    userId = response.body!.id;
    expect(response.location).toBe(`${server.url}/scim/v2/Users/${userId}`);
    expect(response.body).toMatchObject({
      schemas: [USER, ENTERPRISE],
      userName: userName.toLowerCase(),
      externalId: "0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef",
      active: true,
      name: { givenName: "Sandy", familyName: "Nia" },
      [ENTERPRISE]: { employeeNumber: "701984" },
      meta: { resourceType: "User", location: response.location },
    });
    expect(Date.parse(response.body!.meta.created)).toBeGreaterThan(0);
  });

  it("a second create of the same person is 409 uniqueness", async () => {
    const response = await scim(server, "POST", "/Users", { schemas: [USER], userName, active: true });
    expect(response.status).toBe(409);
    expect(response.body).toEqual({ schemas: [ERROR], status: "409", scimType: "uniqueness", detail: expect.any(String) });
  });

  it("gets the user by id and by filter", async () => {
    expect((await scim(server, "GET", `/Users/${userId}`)).body).toMatchObject({ id: userId, userName: userName.toLowerCase() });
    const found = await scim(server, "GET", `/Users?filter=userName eq "${userName}"`);
    expect(found.body).toMatchObject({ totalResults: 1, itemsPerPage: 1, Resources: [{ id: userId }] });
    const none = await scim(server, "GET", `/Users?filter=userName+eq+%22non-existent%20user%22`);
    expect(none.body).toMatchObject({ totalResults: 0, Resources: [] });
  });

  it("updates multi-valued and single-valued attributes with capitalised Replace and a path filter", async () => {
    const response = await scim(server, "PATCH", `/Users/${userId}`, {
      schemas: [PATCH],
      Operations: [
        { op: "Replace", path: 'emails[type eq "work"].value', value: "sandy.nia@b1.example.com" },
        { op: "Replace", path: "name.familyName", value: "updatedFamilyName" },
      ],
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      emails: [{ type: "work", value: "sandy.nia@b1.example.com" }],
      name: { familyName: "updatedFamilyName" },
    });
    const renamed = await scim(server, "PATCH", `/Users/${userId}`, {
      schemas: [PATCH],
      Operations: [{ op: "Replace", path: "userName", value: "sandy.nia@b1.example.com" }],
    });
    expect(renamed.body).toMatchObject({ userName: "sandy.nia@b1.example.com" });
  });

  it("takes the manager as Entra sends it, a bare id string, together with the other changes of the same PATCH", async () => {
    // Entra sends single-valued attributes as bare values: Microsoft's "Known issues and resolutions with SCIM 2.0
    // protocol compliance of the Microsoft Entra user provisioning service", "Requests made to add a single-value
    // string attribute":
    //   { "schemas": ["urn:ietf:params:scim:api:messages:2.0:PatchOp"],
    //     "Operations": [{ "op": "Add", "path": "nickName", "value": "Babs" }] }
    // and the enterprise `manager` (a complex attribute, RFC 7643 §4.3) the same way, its id as the value:
    //   { "op": "Add", "path": "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:manager", "value": "2819c223-…" }
    const manager = "2819c223-7f76-453a-919d-413861904646";
    const response = await scim(server, "PATCH", `/Users/${userId}`, {
      schemas: [PATCH],
      Operations: [
        { op: "Add", path: `${ENTERPRISE}:department`, value: "Engenharia" },
        { op: "Add", path: `${ENTERPRISE}:manager`, value: manager },
      ],
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ [ENTERPRISE]: { department: "Engenharia", manager: { value: manager } } });
    expect((await scim(server, "GET", `/Users/${userId}`)).body).toMatchObject({
      [ENTERPRISE]: { department: "Engenharia", manager: { value: manager } },
    });
    // The same bare id in the "Requests to replace multiple attributes" shape (a path-less value keyed by paths),
    // and the RFC's own shape (an object with `value`), with Replace.
    const other = "e9e30dba-f08f-4109-8486-d5c6a331660a";
    const pathless = await scim(server, "PATCH", `/Users/${userId}`, {
      schemas: [PATCH],
      Operations: [{ op: "replace", value: { displayName: "Sandy Nia", [`${ENTERPRISE}:manager`]: other } }],
    });
    expect(pathless.status).toBe(200);
    expect(pathless.body).toMatchObject({ [ENTERPRISE]: { manager: { value: other } } });
    const rfc = await scim(server, "PATCH", `/Users/${userId}`, {
      schemas: [PATCH],
      Operations: [{ op: "Replace", path: `${ENTERPRISE}:manager`, value: { value: manager } }],
    });
    expect(rfc.body).toMatchObject({ [ENTERPRISE]: { manager: { value: manager } } });
    // Other wrong shapes stay refused (400 invalidValue), and the PATCH being atomic nothing of it is applied.
    for (const wrong of [42, true, [manager], "", "x".repeat(257), "ger\u202eente", { value: 7 }, { chefe: manager }]) {
      const refused = await scim(server, "PATCH", `/Users/${userId}`, {
        schemas: [PATCH],
        Operations: [
          { op: "Add", path: `${ENTERPRISE}:department`, value: "Não aplicado" },
          { op: "Add", path: `${ENTERPRISE}:manager`, value: wrong },
        ],
      });
      expect({ wrong, status: refused.status }).toEqual({ wrong, status: 400 });
      expect(refused.body).toMatchObject({ schemas: [ERROR], status: "400" });
    }
    expect((await scim(server, "GET", `/Users/${userId}`)).body).toMatchObject({
      [ENTERPRISE]: { department: "Engenharia", manager: { value: manager } },
    });
    // Removing it (a value-less Remove) leaves the department.
    const removed = await scim(server, "PATCH", `/Users/${userId}`, {
      schemas: [PATCH],
      Operations: [{ op: "Remove", path: `${ENTERPRISE}:manager` }],
    });
    expect(removed.status).toBe(200);
    expect(removed.body![ENTERPRISE]).toEqual({ employeeNumber: "701984", department: "Engenharia" });
  });

  it("an empty PATCH changes nothing", async () => {
    const before = (await scim(server, "GET", `/Users/${userId}`)).body;
    const response = await scim(server, "PATCH", `/Users/${userId}`, { schemas: [PATCH], Operations: [] });
    expect(response.status).toBe(200);
    expect(response.body).toEqual(before);
  });

  it('disables the user with active as the string "False" and ends the live session before answering', async () => {
    // An account made in the portal (password, role given by hand): the directory manages it once an admin links it.
    const person = await createTestUser(server.db, ["visualizador"], "entra-sessao");
    const adopted = await scim(server, "GET", `/Users?filter=userName eq "${person.email}"`);
    const id = adopted.body!.Resources[0].id;
    await linkToDirectory(server, id);
    expect((await fetch(`${server.url}/faq`, { headers: { cookie: `b1_session=${person.token}` }, redirect: "manual" })).status).toBe(200);
    const response = await scim(server, "PATCH", `/Users/${id}`, {
      schemas: [PATCH],
      Operations: [{ op: "Replace", path: "active", value: "False" }],
    });
    expect(response.status).toBe(200);
    expect(response.body!.active).toBe(false);
    const page = await fetch(`${server.url}/faq`, { headers: { cookie: `b1_session=${person.token}` }, redirect: "manual" });
    expect(page.status).toBe(302);
    expect(page.headers.get("location")).toMatch(/^\/auth/);
    const signIn = await fetch(`${server.url}/api/auth/sign-in`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: server.url },
      body: JSON.stringify({ email: person.email, password: person.password }),
    });
    expect(signIn.status).toBe(403);
    expect(await signIn.json()).toMatchObject({ error: expect.stringContaining("desativada") });
    const filtered = await scim(server, "GET", `/Users?filter=userName eq "${person.email}"`);
    expect(filtered.body!.Resources[0].active).toBe(false);
    const back = await scim(server, "PATCH", `/Users/${id}`, {
      schemas: [PATCH],
      Operations: [{ op: "Replace", path: "active", value: "True" }],
    });
    expect(back.body!.active).toBe(true);
    const again = await fetch(`${server.url}/api/auth/sign-in`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: server.url },
      body: JSON.stringify({ email: person.email, password: person.password }),
    });
    expect(again.status).toBe(200);
  });

  it("creates a group, finds it by displayName without members, adds and removes members (roles follow the map)", async () => {
    const created = await scim(server, "POST", "/Groups", {
      externalId: "8aa1a0c0-c4c3-4bc0-b4a5-2ef676900159",
      displayName: "lideres-b1",
      meta: { resourceType: "Group" },
      schemas: ["urn:ietf:params:scim:schemas:core:2.0:Group", "http://schemas.microsoft.com/2006/11/ResourceManagement/ADSCIM/2.0/Group"],
    });
    expect(created.status).toBe(201);
    const groupId = created.body!.id;
    expect(created.location).toBe(`${server.url}/scim/v2/Groups/${groupId}`);
    expect(created.body).toMatchObject({ displayName: "lideres-b1", members: [] });

    const byName = await scim(server, "GET", `/Groups?excludedAttributes=members&filter=displayName+eq+%22LIDERES-B1%22`);
    expect(byName.body).toMatchObject({ totalResults: 1, Resources: [{ id: groupId }] });
    expect(byName.body!.Resources[0].members).toBeUndefined();
    expect((await scim(server, "GET", `/Groups/${groupId}?excludedAttributes=members`)).body!.members).toBeUndefined();

    const add = await scim(server, "PATCH", `/Groups/${groupId}`, {
      schemas: [PATCH],
      Operations: [
        {
          op: "Add",
          path: "members",
          value: [
            { $ref: null, value: userId },
            { $ref: null, value: userId },
          ],
        },
      ],
    });
    expect(add.status).toBe(204);
    const group = await scim(server, "GET", `/Groups/${groupId}`);
    expect(group.body!.members).toEqual([expect.objectContaining({ value: userId })]);
    expect((await scim(server, "GET", `/Users/${userId}`)).body!.groups).toEqual([
      expect.objectContaining({ value: groupId, display: "lideres-b1" }),
    ]);
    expect(await rolesOf(userId)).toEqual([{ name: "lider", source: "directory" }]);

    const rename = await scim(server, "PATCH", `/Groups/${groupId}`, {
      schemas: [PATCH],
      Operations: [{ op: "Replace", path: "displayName", value: "Portal Admins" }],
    });
    expect(rename.status).toBe(204);
    expect(await rolesOf(userId)).toEqual([{ name: "admin", source: "directory" }]);

    const remove = await scim(server, "PATCH", `/Groups/${groupId}`, {
      schemas: [PATCH],
      Operations: [{ op: "Remove", path: "members", value: [{ $ref: null, value: userId }] }],
    });
    expect(remove.status).toBe(204);
    expect((await scim(server, "GET", `/Groups/${groupId}`)).body!.members).toEqual([]);
    expect(await rolesOf(userId)).toEqual([{ name: "visualizador", source: "directory" }]);

    expect((await scim(server, "DELETE", `/Groups/${groupId}`)).status).toBe(204);
    expect((await scim(server, "GET", `/Groups/${groupId}`)).status).toBe(404);
  });

  it("name, displayName and emails cannot be left unassigned (docs/provisionamento.md): a Remove answers 200 and they come from the account", async () => {
    const kept = await scim(server, "PATCH", `/Users/${userId}`, {
      schemas: [PATCH],
      Operations: ["name", "displayName", "emails"].map((path) => ({ op: "Remove", path })),
    });
    expect(kept.status).toBe(200);
    expect(kept.body).toMatchObject({
      name: { formatted: expect.any(String) },
      displayName: expect.any(String),
      emails: [{ value: kept.body!.userName, type: "work", primary: true }],
    });
  });

  it("deletes the user: 204, gone, its audit rows kept with the directory as the actor", async () => {
    expect((await scim(server, "DELETE", `/Users/${userId}`)).status).toBe(204);
    const gone = await scim(server, "GET", `/Users/${userId}`);
    expect(gone.status).toBe(404);
    expect(gone.body).toMatchObject({ schemas: [ERROR], status: "404" });
    const rows = await auditRowsFor(userId);
    expect(rows.map((row) => row.actionType)).toEqual(
      expect.arrayContaining(["scim_user_created", "scim_user_updated", "scim_roles_updated", "scim_user_deleted"]),
    );
    for (const row of rows) {
      expect(row.userId).toBeNull();
      expect(JSON.parse(row.actionDetails!).actor).toBe("directory");
    }
    const { verifyAuditChain } = await import("../../../src/lib/server/audit/verify");
    expect(await verifyAuditChain(server.db)).toMatchObject({ ok: true });
    const { auditUserLabel } = await import("../../../src/lib/server/audit/query");
    expect(auditUserLabel({ userId: null, userName: null, userEmail: null, actionDetails: rows[0]!.actionDetails })).toBe(
      "Diretório da empresa (SCIM)",
    );
  });

  async function rolesOf(id: string) {
    const { roles, userRoles } = await import("../../../db/schema/index.ts");
    const { eq } = await import("drizzle-orm");
    return server.db
      .select({ name: roles.name, source: userRoles.source })
      .from(userRoles)
      .innerJoin(roles, eq(roles.id, userRoles.roleId))
      .where(eq(userRoles.userId, id));
  }

  async function auditRowsFor(id: string) {
    const { auditLogs } = await import("../../../db/schema/index.ts");
    const { like } = await import("drizzle-orm");
    return server.db
      .select()
      .from(auditLogs)
      .where(like(auditLogs.actionDetails, `%"user_id":"${id}"%`));
  }
});
