import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { roles, users } from "../../../db/schema/index";
import { createCustomRole, assignRoleByEmail } from "../../../src/lib/server/admin/roles";
import { startBuiltServer, type RunningServer } from "../../support/server";
import { createTestUser, type TestUser } from "../../support/users";

let server: RunningServer;
let admin: TestUser;

function call(method: string, path: string, who: TestUser | null, body?: unknown) {
  const headers: Record<string, string> = { origin: server.url, "content-type": "application/json" };
  if (who) headers.cookie = `b1_session=${who.token}`;
  return fetch(server.url + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), redirect: "manual" });
}

beforeAll(async () => {
  server = await startBuiltServer({ RATE_LIMIT_MULTIPLIER: "100" });
  admin = await createTestUser(server.db, ["admin"]);
});
afterAll(() => server?.stop());

/** Control and format characters an attacker hides in a name: separators, zero-width, bidi overrides, BOM. */
const HIDDEN = ["\u001f", "\u0000", "\n", "\u200b", "\u200e", "\u202e", "\u2066", "\ufeff", "\u00ad"];

describe("an admin names a role Leitor<U+001F>admin to smuggle in the admin role", () => {
  it.each(HIDDEN.map((c) => [JSON.stringify(c), c]))("a role name with %s is refused with a Portuguese message", async (_label, hidden) => {
    const before = (await server.db.select().from(roles)).length;
    const response = await call("POST", "/api/admin/roles", admin, { name: `Leitor${hidden}admin`, description: "", pages: [] });
    expect(response.status).toBe(400);
    expect((await response.json()).error).toBe("Nome do perfil não pode conter caracteres de controle ou invisíveis");
    expect((await server.db.select().from(roles)).length).toBe(before);
  });

  it("a role description with a bidi override is refused; a line break is kept", async () => {
    const bad = await call("POST", "/api/admin/roles", admin, { name: "Leitores", description: "lê\u202etudo", pages: [] });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error).toBe("Descrição não pode conter caracteres de controle ou invisíveis");
    const good = await call("POST", "/api/admin/roles", admin, { name: "Leitores", description: "linha 1\nlinha 2", pages: [] });
    expect(good.status).toBe(201);
  });

  it("a role renamed to Revisor<U+001F>admin behind the form's back grants neither /admin-panel nor /api/admin/*", async () => {
    const holder = await createTestUser(server.db, [], "leitor");
    const created = await createCustomRole(server.db, { name: "Revisor", description: "", pagePaths: ["/comite-ia"] });
    expect(created.ok).toBe(true);
    expect(await assignRoleByEmail(server.db, holder.email, "Revisor")).toBe(true);
    await server.db.update(roles).set({ name: "Revisor\u001fadmin" }).where(eq(roles.name, "Revisor"));

    const panel = await call("GET", "/admin-panel", holder);
    expect(panel.status).toBe(302);
    expect(panel.headers.get("location")).toBe("/acesso-negado?pagina=%2Fadmin-panel");
    for (const path of ["/api/admin/users", "/api/admin/roles", "/api/admin/me"]) {
      expect((await call("GET", path, holder)).status, path).toBe(403);
    }
    // The custom role's own page grant still works.
    expect((await call("GET", "/comite-ia", holder)).status).toBe(200);
  });
});

describe("someone signs up or is created with an invisible character in the full name", () => {
  it.each(["Maria\u202eSilva", "Maria\u200bSilva", "Maria\u001fSilva", "Maria\tSilva"])(
    "admin create user refuses %j",
    async (fullName) => {
      const response = await call("POST", "/api/admin/users", admin, {
        email: `nome-${Date.now()}@b1.example.com`,
        fullName,
        password: "Senha@123",
        roles: [],
      });
      expect(response.status).toBe(400);
      expect((await response.json()).error).toBe("Nome não pode conter caracteres de controle ou invisíveis");
    },
  );

  it("sign-up refuses a bidi override in the name and creates nobody", async () => {
    const email = `bidi-${Date.now()}@b1.example.com`;
    const response = await call("POST", "/api/auth/sign-up", null, {
      fullName: "Maria\u202eSilva",
      email,
      password: "Senha@123",
      confirmPassword: "Senha@123",
    });
    expect(response.status).toBe(400);
    expect((await response.json()).error).toBe("Nome não pode conter caracteres de controle ou invisíveis");
    expect((await server.db.select().from(users).where(eq(users.email, email)))[0]!).toBeUndefined();
  });
});
