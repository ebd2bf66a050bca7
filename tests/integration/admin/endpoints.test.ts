import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { auditLogs, roles, users } from "../../../db/schema/index";
import { startBuiltServer, type RunningServer } from "../../support/server";
import { createTestUser, type TestUser } from "../../support/users";

let server: RunningServer;
let admin: TestUser;
const personas: Record<string, TestUser> = {};

async function call(method: string, path: string, who: TestUser | null, body?: unknown) {
  const headers: Record<string, string> = { origin: server.url, "content-type": "application/json" };
  if (who) headers.cookie = `b1_session=${who.token}`;
  return fetch(server.url + path, {
    method,
    headers,
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
}

const snapshot = async () => JSON.stringify([await server.db.select().from(users), await server.db.select().from(roles)]);
const roleId = async (name: string) => (await server.db.select().from(roles).where(eq(roles.name, name)))[0]!.id;

beforeAll(async () => {
  server = await startBuiltServer();
  admin = await createTestUser(server.db, ["admin"]);
  for (const role of ["visualizador", "lider", "security"]) personas[role] = await createTestUser(server.db, [role]);
});
afterAll(() => server?.stop());

const ENDPOINTS: [string, string, unknown?][] = [
  ["GET", "/api/admin/me"],
  ["GET", "/api/admin/primeiros-passos"],
  ["POST", "/api/admin/primeiros-passos", {}],
  ["GET", "/api/admin/users"],
  ["POST", "/api/admin/users", { email: "x@b1.example.com", fullName: "Xis", password: "Senha@123", roles: [] }],
  ["PUT", "/api/admin/users/qualquer", { fullName: "Xis", roles: [] }],
  ["DELETE", "/api/admin/users/qualquer"],
  ["GET", "/api/admin/roles"],
  ["POST", "/api/admin/roles", { name: "novo", description: "", pages: [] }],
  ["PUT", "/api/admin/roles/1", { name: "admin", description: "x", pages: [] }],
  ["DELETE", "/api/admin/roles/1"],
];

describe("admin endpoints refuse everyone but admins", () => {
  it.each(ENDPOINTS)("%s %s: 401 anonymous, 403 visualizador/lider/security, nothing changes", async (method, path, body) => {
    const before = await snapshot();
    expect((await call(method, path, null, body)).status).toBe(401);
    for (const role of ["visualizador", "lider", "security"]) {
      const response = await call(method, path, personas[role]!, body);
      expect(response.status, role).toBe(403);
      expect(await response.json()).toEqual({ error: "Acesso negado" });
    }
    expect(await snapshot()).toBe(before);
  });

  it("refuses cross-site writes even from an admin", async () => {
    const response = await fetch(server.url + "/api/admin/roles", {
      method: "POST",
      headers: { cookie: `b1_session=${admin.token}`, origin: "https://evil.example.com", "content-type": "application/json" },
      body: JSON.stringify({ name: "csrf", description: "", pages: [] }),
    });
    expect(response.status).toBe(403);
  });
});

describe("Primeiros passos", () => {
  it("tells an admin what the test server still runs on (example domain, no keys, no backup), 50 times in parallel alike", async () => {
    const answers = await Promise.all(Array.from({ length: 50 }, () => call("GET", "/api/admin/primeiros-passos", admin)));
    const bodies = await Promise.all(answers.map((response) => response.json() as Promise<{ passos: { id: string }[] }>));
    expect(new Set(bodies.map((body) => JSON.stringify(body.passos.map((step) => step.id)))).size).toBe(1);
    expect(bodies[0]!.passos.map((step) => step.id)).toContain("dominios");
    // A method the endpoint does not have is answered as every such one is here (404), with nothing read or written.
    expect((await call("POST", "/api/admin/primeiros-passos", admin, {})).status).toBe(404);
  });
});

describe("malformed bodies", () => {
  it.each([
    ["POST", "/api/admin/users", "{nope"],
    ["POST", "/api/admin/users", { email: "invalido", fullName: "Ana", password: "Senha@123" }],
    ["POST", "/api/admin/users", { email: "ana@b1.example.com", fullName: "A", password: "Senha@123" }],
    ["POST", "/api/admin/users", { email: "ana@b1.example.com", fullName: "Ana", password: "fraca" }],
    ["POST", "/api/admin/users", { email: "ana@b1.example.com", fullName: "Ana", password: "Senha@123", roles: "admin" }],
    ["POST", "/api/admin/roles", { name: "x" }],
    ["POST", "/api/admin/roles", { name: "ok", pages: "tudo" }],
  ])("%s %s %j → 400 with a Portuguese message, nothing changes", async (method, path, body) => {
    const before = await snapshot();
    const response = await call(method, path, admin, body);
    expect(response.status).toBe(400);
    const json = (await response.json()) as { error: string };
    expect(json.error).toMatch(/[a-zà-ú]/i);
    expect(json.error).not.toMatch(/expected|invalid input|received/i);
    expect(await snapshot()).toBe(before);
  });
});

describe("users", () => {
  it("creates a confirmed user with two roles, updates name and roles, deletes it — audited with before/after", async () => {
    const created = await call("POST", "/api/admin/users", admin, {
      email: "Carla@B1.example.com",
      fullName: "Carla Dias",
      password: "Senha@123",
      roles: ["visualizador", "lider"],
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const row = (await server.db.select().from(users).where(eq(users.id, id)))[0]!;
    expect(row.email).toBe("carla@b1.example.com");
    expect(row.emailConfirmedAt).not.toBeNull();

    const list = (await (await call("GET", "/api/admin/users", admin)).json()) as { users: { id: string; roles: string[] }[] };
    expect(list.users.find((u) => u.id === id)?.roles.sort()).toEqual(["lider", "visualizador"]);

    const updated = await call("PUT", `/api/admin/users/${id}`, admin, { fullName: "Carla Dias Souza", roles: ["security"] });
    expect(updated.status).toBe(200);
    const audit = await server.db.select().from(auditLogs).where(eq(auditLogs.userId, admin.id));
    const update = audit.find((a) => a.actionType === "admin_user_updated")!;
    expect(JSON.parse(update.actionDetails!)).toMatchObject({
      before: { full_name: "Carla Dias", roles: ["lider", "visualizador"] },
      after: { full_name: "Carla Dias Souza", roles: ["security"] },
    });
    expect(audit.filter((a) => a.actionType === "admin_role_removed")).toHaveLength(2);
    expect(audit.filter((a) => a.actionType === "admin_role_assigned").length).toBeGreaterThanOrEqual(3);

    expect((await call("DELETE", `/api/admin/users/${id}`, admin)).status).toBe(200);
    expect((await server.db.select().from(users).where(eq(users.id, id)))[0]!).toBeUndefined();
    expect(await server.db.select().from(auditLogs).where(eq(auditLogs.actionType, "admin_user_deleted"))).toHaveLength(1);
  });

  it("refuses a duplicate e-mail, an unknown role and an unauthorised domain", async () => {
    const duplicate = await call("POST", "/api/admin/users", admin, {
      email: personas.lider!.email,
      fullName: "Dup",
      password: "Senha@123",
      roles: [],
    });
    expect(duplicate.status).toBe(409);
    expect(((await duplicate.json()) as { error: string }).error).toBe("Já existe um usuário com este e-mail");
    const unknown = await call("POST", "/api/admin/users", admin, {
      email: "nova@b1.example.com",
      fullName: "Nova",
      password: "Senha@123",
      roles: ["chefe"],
    });
    expect(unknown.status).toBe(400);
    expect(((await unknown.json()) as { error: string }).error).toBe("Perfil desconhecido: chefe");
    const domain = await call("POST", "/api/admin/users", admin, {
      email: "nova@gmail.com",
      fullName: "Nova",
      password: "Senha@123",
      roles: [],
    });
    expect(domain.status).toBe(400);
  });

  it("gives Visualizador to a user created without a role, as the panel's notes promise", async () => {
    const created = await call("POST", "/api/admin/users", admin, {
      email: "sem-perfil@b1.example.com",
      fullName: "Sem Perfil",
      password: "Senha@123",
      roles: [],
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const list = (await (await call("GET", `/api/admin/users?q=sem-perfil`, admin)).json()) as { users: { id: string; roles: string[] }[] };
    expect(list.users.find((u) => u.id === id)?.roles).toEqual(["visualizador"]);
  });

  // The search keeps every user's name and e-mail between requests until the database's change
  // counter moves: a rename by another connection (the CLI, another instance) or by the panel must
  // show in the very next search, never a stale copy.
  it("a search sees a rename made outside the panel, and one made through it, on its very next request", async () => {
    const viewer = personas.visualizador!;
    const search = async (text: string) =>
      (
        (await (await call("GET", `/api/admin/users?q=${encodeURIComponent(text)}`, admin)).json()) as { users: { id: string }[] }
      ).users.map((user) => user.id);
    expect(await search("quintino avila")).toEqual([]);
    await server.db.update(users).set({ fullName: "Zacarias Quintino Ávila" }).where(eq(users.id, viewer.id));
    expect(await search("quintino avila")).toEqual([viewer.id]);
    const renamed = await call("PUT", `/api/admin/users/${viewer.id}`, admin, { fullName: "Olímpia Xavante", roles: ["visualizador"] });
    expect(renamed.status).toBe(200);
    expect(await search("quintino avila")).toEqual([]);
    expect(await search("olimpia xavante")).toEqual([viewer.id]);
    await server.db.update(users).set({ fullName: viewer.fullName }).where(eq(users.id, viewer.id));
    expect(await search("olimpia xavante")).toEqual([]);
  });

  it("names the field a refusal concerns, so the form can show it beside that field", async () => {
    const duplicate = await call("POST", "/api/admin/users", admin, {
      email: personas.lider!.email,
      fullName: "Dup",
      password: "Senha@123",
      roles: [],
    });
    expect(await duplicate.json()).toEqual({
      error: "Já existe um usuário com este e-mail",
      fields: { email: "Já existe um usuário com este e-mail" },
    });
    const taken = await call("POST", "/api/admin/roles", admin, { name: "lider", description: "", pages: [] });
    expect(await taken.json()).toEqual({
      error: "Já existe um perfil com este nome",
      fields: { name: "Já existe um perfil com este nome" },
    });
  });

  it("never lets an admin delete or demote themself, nor remove the last admin", async () => {
    const self = await call("DELETE", `/api/admin/users/${admin.id}`, admin);
    expect(self.status).toBe(400);
    expect(await self.json()).toEqual({ error: "Você não pode excluir a sua própria conta" });
    const demote = await call("PUT", `/api/admin/users/${admin.id}`, admin, { fullName: "Admin", roles: ["lider"] });
    expect(demote.status).toBe(400);

    const second = await createTestUser(server.db, ["admin"]);
    // With two admins, the second may remove the first's admin role… but not when only one is left.
    expect((await call("PUT", `/api/admin/users/${admin.id}`, second, { fullName: "Admin", roles: ["lider"] })).status).toBe(200);
    // The demoted first admin has lost the panel at once (next request).
    const last = await call("DELETE", `/api/admin/users/${second.id}`, admin);
    expect(last.status).toBe(403);
    const lastDemote = await call("PUT", `/api/admin/users/${second.id}`, second, { fullName: "X Y", roles: [] });
    expect(lastDemote.status).toBe(400);
    // Restore for the following tests.
    expect((await call("PUT", `/api/admin/users/${admin.id}`, second, { fullName: "Admin", roles: ["admin"] })).status).toBe(200);
    const removeLast = await call("DELETE", `/api/admin/users/${second.id}`, admin);
    expect(removeLast.status).toBe(200);
    // Now the only admin again: still cannot demote themself.
    const guard = await call("PUT", `/api/admin/users/${admin.id}`, admin, { fullName: "Admin", roles: [] });
    expect(guard.status).toBe(400);
  });
});

describe("two-factor without TWO_FACTOR_KEY", () => {
  it("lists every user as without a second factor, none required, and says two-factor is off", async () => {
    const response = await call("GET", `/api/admin/users?q=${encodeURIComponent(personas.lider!.email)}`, admin);
    const page = (await response.json()) as { twoFactorOn: boolean; users: { email: string; twoFactor: unknown }[] };
    expect(page.twoFactorOn).toBe(false);
    expect(page.users).toEqual([
      expect.objectContaining({ email: personas.lider!.email, twoFactor: { enrolled: false, required: false } }),
    ]);
  });

  it("refuses a reset with a Portuguese message naming the missing setting, and audits nothing", async () => {
    const before = (await server.db.select().from(auditLogs).where(eq(auditLogs.actionType, "two_factor_reset"))).length;
    const response = await call("DELETE", `/api/admin/users/${personas.lider!.id}/two-factor`, admin);
    expect(response.status).toBe(409);
    expect((await response.json()).error).toBe(
      "A verificação em duas etapas não está configurada neste portal (TWO_FACTOR_KEY não definida): não há segundo fator para redefinir.",
    );
    expect((await server.db.select().from(auditLogs).where(eq(auditLogs.actionType, "two_factor_reset"))).length).toBe(before);
  });
});

describe("roles", () => {
  it("lists system roles first with counts and the checklist pages", async () => {
    const data = (await (await call("GET", "/api/admin/roles", admin)).json()) as {
      roles: { name: string; isSystem: boolean; lockedPages: string[] }[];
      pages: { path: string; kind: string }[];
    };
    expect(data.roles.slice(0, 4).every((r) => r.isSystem)).toBe(true);
    expect(data.roles.find((r) => r.name === "lider")?.lockedPages).toEqual(["/comite-ia", "/leitura/relatorio"]);
    expect(data.pages.find((p) => p.path === "/comite-ia")?.kind).toBe("grantable");
    // Every page an admin can grant or restrict is listed, in its group; public and account pages are not.
    expect(data.pages.find((p) => p.path === "/admin-panel")).toMatchObject({ kind: "fixed", group: "administracao" });
    expect(data.pages.find((p) => p.path === "/faq")).toMatchObject({ kind: "signed-in", group: "conteudo" });
    expect(data.pages.some((p) => p.path === "/" || p.path === "/conta/sessoes")).toBe(false);
  });

  it("lists a custom role's granted pages, and an edit of only the description keeps them", async () => {
    const created = await call("POST", "/api/admin/roles", admin, {
      name: "auditores-externos",
      description: "Antes",
      pages: ["/audit-logs"],
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: number };
    const listed = async () =>
      (
        (await (await call("GET", "/api/admin/roles", admin)).json()) as { roles: { id: number; pages: string[]; description: string }[] }
      ).roles.find((r) => r.id === id)!;
    const shown = await listed();
    expect(shown.pages).toEqual(["/audit-logs"]);
    // The dialog sends back what the list showed, with only the description changed.
    const edited = await call("PUT", `/api/admin/roles/${id}`, admin, {
      name: "auditores-externos",
      description: "Depois",
      pages: shown.pages,
    });
    expect(edited.status).toBe(200);
    expect(await listed()).toMatchObject({ description: "Depois", pages: ["/audit-logs"] });
  });

  it("refuses to delete or rename a system role", async () => {
    const del = await call("DELETE", `/api/admin/roles/${await roleId("lider")}`, admin);
    expect(del.status).toBe(400);
    expect(await del.json()).toEqual({ error: "Não é possível excluir perfis do sistema" });
    const rename = await call("PUT", `/api/admin/roles/${await roleId("lider")}`, admin, {
      name: "lideranca",
      description: "x",
      pages: [],
    });
    expect(rename.status).toBe(400);
    expect(((await rename.json()) as { error: string }).error).toBe("Nome não pode ser alterado em perfis do sistema");
    // Its route-table pages stay even when the checklist comes back empty.
    expect(
      (await call("PUT", `/api/admin/roles/${await roleId("lider")}`, admin, { name: "lider", description: "Líderes", pages: [] })).status,
    ).toBe(200);
    expect((await call("GET", "/comite-ia", personas.lider!)).status).toBe(200);
  });

  it("a custom role opens /comite-ia on the next request and the access ends when it is deleted", async () => {
    const holder = await createTestUser(server.db, ["visualizador"]);
    const page = () => fetch(server.url + "/comite-ia", { headers: { cookie: `b1_session=${holder.token}` }, redirect: "manual" });
    expect((await page()).status).toBe(302);
    // A page that does not exist is refused (Access II), nothing created.
    const unknown = await call("POST", "/api/admin/roles", admin, {
      name: "convidados-comite",
      description: "Convidados",
      pages: ["/comite-ia", "/nao-existe"],
    });
    expect(unknown.status).toBe(400);
    expect(((await unknown.json()) as { error: string }).error).toBe("Página desconhecida: /nao-existe");
    const created = await call("POST", "/api/admin/roles", admin, {
      name: "convidados-comite",
      description: "Convidados",
      pages: ["/comite-ia"],
    });
    expect(created.status).toBe(201);
    const duplicate = await call("POST", "/api/admin/roles", admin, { name: "convidados-comite", description: "", pages: [] });
    expect(duplicate.status).toBe(409);
    expect(((await duplicate.json()) as { error: string }).error).toBe("Já existe um perfil com este nome");
    expect(
      (
        await call("PUT", `/api/admin/users/${holder.id}`, admin, {
          fullName: holder.fullName,
          roles: ["visualizador", "convidados-comite"],
        })
      ).status,
    ).toBe(200);
    expect((await page()).status).toBe(200);
    const { id } = (await created.json()) as { id: number };
    expect((await call("DELETE", `/api/admin/roles/${id}`, admin)).status).toBe(200);
    const after = await page();
    expect(after.status).toBe(302);
    expect(after.headers.get("location")).toBe("/acesso-negado?pagina=%2Fcomite-ia");
    const deleted = (await server.db.select().from(auditLogs).where(eq(auditLogs.actionType, "admin_custom_role_deleted")))[0]!;
    expect(JSON.parse(deleted.actionDetails!)).toMatchObject({ name: "convidados-comite", pages: ["/comite-ia"], holders: [holder.email] });
  });
});
