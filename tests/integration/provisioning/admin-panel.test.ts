/**
 * What an administrator sees of directory-managed accounts: 'Desativado' and the directory mark in
 * the user list, the name read-only (the panel's update refuses a change), roles still editable.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBuiltServer, type RunningServer } from "../../support/server";
import { scim, SCIM_TOKEN } from "../../support/scim";
import { createTestUser, type TestUser } from "../../support/users";

describe("admin panel and directory-managed accounts", () => {
  let server: RunningServer;
  let admin: TestUser;
  let id = "";

  beforeAll(async () => {
    server = await startBuiltServer({ SCIM_TOKEN });
    admin = await createTestUser(server.db, ["admin"], "admin-painel");
    const created = await scim(server, "POST", "/Users", {
      schemas: ["urn:ietf:params:scim:schemas:core:2.0:User"],
      userName: "gerida@b1.example.com",
      displayName: "Pessoa Gerida",
      active: false,
    });
    id = created.body!.id;
  });
  afterAll(async () => {
    await server?.stop();
  });

  const api = (method: string, path: string, body?: unknown) =>
    fetch(`${server.url}${path}`, {
      method,
      headers: { cookie: `b1_session=${admin.token}`, origin: server.url, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  it("the user list marks the account as directory-managed and deactivated", async () => {
    const page = await (await api("GET", "/api/admin/users?q=gerida")).json();
    expect(page.users).toEqual([expect.objectContaining({ id, fullName: "Pessoa Gerida", directoryManaged: true, deactivated: true })]);
    const own = await (await api("GET", `/api/admin/users?q=${encodeURIComponent(admin.email)}`)).json();
    expect(own.users[0]).toMatchObject({ directoryManaged: false, deactivated: false });
  });

  it("the name cannot be changed in the panel; roles can", async () => {
    const renamed = await api("PUT", `/api/admin/users/${id}`, { fullName: "Outro Nome", roles: ["visualizador"] });
    expect(renamed.status).toBe(400);
    expect(JSON.stringify(await renamed.json())).toContain("diretório");
    const roles = await api("PUT", `/api/admin/users/${id}`, { fullName: "Pessoa Gerida", roles: ["visualizador", "lider"] });
    expect(roles.status).toBe(200);
  });

  it("reactivation by the directory clears 'Desativado'", async () => {
    await scim(server, "PATCH", `/Users/${id}`, {
      schemas: ["urn:ietf:params:scim:api:messages:2.0:PatchOp"],
      Operations: [{ op: "Replace", path: "active", value: "True" }],
    });
    const page = await (await api("GET", "/api/admin/users?q=gerida")).json();
    expect(page.users[0]).toMatchObject({ deactivated: false, roles: ["lider", "visualizador"] });
  });
});
