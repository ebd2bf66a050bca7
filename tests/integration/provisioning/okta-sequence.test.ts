/**
 * The requests Okta's SCIM 2.0 provisioning sends, in the shapes of Okta's SCIM 2.0 documentation
 * (lower-case ops, path-less `replace` with a value object to deactivate, `startIndex`/`count` on
 * lookups, PUT of the whole user, group push with `members[value eq "…"]` removal); both engines.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBuiltServer, type RunningServer } from "../../support/server";
import { scim, SCIM_TOKEN } from "../../support/scim";

const USER = "urn:ietf:params:scim:schemas:core:2.0:User";
const GROUP = "urn:ietf:params:scim:schemas:core:2.0:Group";
const PATCH = "urn:ietf:params:scim:api:messages:2.0:PatchOp";
const ENTERPRISE = "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User";

describe("SCIM: Okta's request sequence", () => {
  let server: RunningServer;
  let userId = "";
  let groupId = "";
  const userName = "test.user@b1.example.com";

  beforeAll(async () => {
    server = await startBuiltServer({ SCIM_TOKEN, OIDC_ROLE_MAP: "Okta Lideres:lider" });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("checks the user does not exist, with startIndex and count", async () => {
    const response = await scim(server, "GET", `/Users?filter=userName%20eq%20%22test.user%40b1.example.com%22&startIndex=1&count=100`);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      schemas: ["urn:ietf:params:scim:api:messages:2.0:ListResponse"],
      totalResults: 0,
      startIndex: 1,
      itemsPerPage: 0,
      Resources: [],
    });
  });

  it("creates the user (the password Okta may send is never kept)", async () => {
    const response = await scim(server, "POST", "/Users", {
      schemas: [USER],
      userName,
      name: { givenName: "Test", familyName: "User" },
      emails: [{ primary: true, value: userName, type: "work" }],
      displayName: "Test User",
      locale: "en-US",
      externalId: "00ujl29u0le5T6Aj10h7",
      groups: [],
      password: "1mz050nq",
      active: true,
    });
    expect(response.status).toBe(201);
    userId = response.body!.id;
    expect(response.body).toMatchObject({
      userName,
      displayName: "Test User",
      externalId: "00ujl29u0le5T6Aj10h7",
      active: true,
      locale: "en-US",
    });
    expect(JSON.stringify(response.body)).not.toContain("1mz050nq");
    const { users } = await import("../../../db/schema/index.ts");
    const { eq } = await import("drizzle-orm");
    const [row] = await server.db.select().from(users).where(eq(users.id, userId));
    expect(row!.fullName).toBe("Test User");
    expect(row!.directoryResource).not.toContain("1mz050nq");
  });

  it("GET by id, then PUT of the whole user changes the name", async () => {
    const current = (await scim(server, "GET", `/Users/${userId}`)).body!;
    const response = await scim(server, "PUT", `/Users/${userId}`, {
      ...current,
      name: { givenName: "Another", familyName: "User" },
      displayName: "Another User",
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ id: userId, displayName: "Another User", name: { givenName: "Another" } });
  });

  it("pages through every user with startIndex and count", async () => {
    for (const n of [1, 2]) {
      const created = await scim(server, "POST", "/Users", { schemas: [USER], userName: `pagina-${n}@b1.example.com`, active: true });
      expect(created.status).toBe(201);
    }
    const first = await scim(server, "GET", "/Users?startIndex=1&count=2");
    expect(first.body).toMatchObject({ totalResults: 3, startIndex: 1, itemsPerPage: 2 });
    const second = await scim(server, "GET", "/Users?startIndex=3&count=2");
    expect(second.body).toMatchObject({ totalResults: 3, startIndex: 3, itemsPerPage: 1 });
    const ids = [...first.body!.Resources, ...second.body!.Resources].map((user: { id: string }) => user.id);
    expect(new Set(ids).size).toBe(3);
  });

  it("deactivates with a path-less replace, then reactivates", async () => {
    const off = await scim(server, "PATCH", `/Users/${userId}`, {
      schemas: [PATCH],
      Operations: [{ op: "replace", value: { active: false } }],
    });
    expect(off.status).toBe(200);
    expect(off.body!.active).toBe(false);
    const on = await scim(server, "PATCH", `/Users/${userId}`, {
      schemas: [PATCH],
      Operations: [{ op: "replace", value: { active: true } }],
    });
    expect(on.body!.active).toBe(true);
  });

  it("a path-less replace carrying the enterprise department and manager (as an object) with the deactivation: all of it applied", async () => {
    // Okta's "SCIM 2.0" reference, "Update a specific User (PATCH)": its PATCH bodies are path-less replaces,
    //   { "schemas": ["urn:ietf:params:scim:api:messages:2.0:PatchOp"],
    //     "Operations": [{ "op": "replace", "value": { "active": false } }] }
    // with the profile attributes an admin maps (here the enterprise extension, manager as RFC 7643's `{ "value": … }`).
    const response = await scim(server, "PATCH", `/Users/${userId}`, {
      schemas: [PATCH],
      Operations: [
        {
          op: "replace",
          value: { active: false, [ENTERPRISE]: { department: "Operações", manager: { value: "00u1ckjz6GlpRTUFk0h8" } } },
        },
      ],
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      active: false,
      [ENTERPRISE]: { department: "Operações", manager: { value: "00u1ckjz6GlpRTUFk0h8" } },
    });
    // The manager as a bare id in the extension object (Entra's habit) is taken too; a number is not.
    const bare = await scim(server, "PATCH", `/Users/${userId}`, {
      schemas: [PATCH],
      Operations: [{ op: "replace", value: { active: true, [ENTERPRISE]: { manager: "00u1ckjz6GlpRTUFk0h9" } } }],
    });
    expect(bare.body).toMatchObject({
      active: true,
      [ENTERPRISE]: { department: "Operações", manager: { value: "00u1ckjz6GlpRTUFk0h9" } },
    });
    const refused = await scim(server, "PATCH", `/Users/${userId}`, {
      schemas: [PATCH],
      Operations: [{ op: "replace", value: { active: false, [ENTERPRISE]: { manager: 7 } } }],
    });
    expect(refused.status).toBe(400);
    expect((await scim(server, "GET", `/Users/${userId}`)).body).toMatchObject({ active: true });
  });

  it("pushes a group, renames it with a path-less replace, adds, replaces and removes members", async () => {
    const created = await scim(server, "POST", "/Groups", { schemas: [GROUP], displayName: "Test SCIMv2", members: [] });
    expect(created.status).toBe(201);
    groupId = created.body!.id;
    const found = await scim(server, "GET", `/Groups?filter=displayName%20eq%20%22Test%20SCIMv2%22&startIndex=1&count=100`);
    expect(found.body).toMatchObject({ totalResults: 1, Resources: [{ id: groupId }] });

    const renamed = await scim(server, "PATCH", `/Groups/${groupId}`, {
      schemas: [PATCH],
      Operations: [{ op: "replace", value: { id: groupId, displayName: "Okta Lideres" } }],
    });
    expect(renamed.status).toBe(204);
    const added = await scim(server, "PATCH", `/Groups/${groupId}`, {
      schemas: [PATCH],
      Operations: [{ op: "add", path: "members", value: [{ value: userId, display: userName }] }],
    });
    expect(added.status).toBe(204);
    expect((await scim(server, "GET", `/Groups/${groupId}`)).body).toMatchObject({
      displayName: "Okta Lideres",
      members: [{ value: userId }],
    });
    expect((await scim(server, "GET", `/Users/${userId}`)).body!.groups).toEqual([expect.objectContaining({ value: groupId })]);

    const removed = await scim(server, "PATCH", `/Groups/${groupId}`, {
      schemas: [PATCH],
      Operations: [{ op: "remove", path: `members[value eq "${userId}"]` }],
    });
    expect(removed.status).toBe(204);
    expect((await scim(server, "GET", `/Groups/${groupId}`)).body!.members).toEqual([]);

    const put = await scim(server, "PUT", `/Groups/${groupId}`, {
      schemas: [GROUP],
      id: groupId,
      displayName: "Okta Lideres",
      members: [{ value: userId }],
    });
    expect(put.status).toBe(200);
    expect(put.body!.members).toEqual([expect.objectContaining({ value: userId })]);
    expect(await rolesOf(userId)).toEqual(["lider"]);
  });

  it("deletes the group: its members lose the roles it gave", async () => {
    expect((await scim(server, "DELETE", `/Groups/${groupId}`)).status).toBe(204);
    expect((await scim(server, "GET", `/Users/${userId}`)).body!.groups).toEqual([]);
    expect(await rolesOf(userId)).toEqual(["visualizador"]);
  });

  async function rolesOf(id: string) {
    const { roleNamesOf } = await import("../../../src/lib/server/auth/user.ts");
    return (await roleNamesOf(server.db, id)).sort();
  }
});
