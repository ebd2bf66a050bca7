import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AccessMatrix, UserAccess } from "../../../src/lib/admin/access-matrix";
import { ROUTES } from "../../../src/lib/routes";
import { assignRoleByEmail, createCustomRole } from "../../../src/lib/server/admin/roles";
import { startBuiltServer, type RunningServer } from "../../support/server";
import { createTestUser, type TestUser } from "../../support/users";

// 'Quem acessa o quê' must say exactly what the gate does: every persona × every page, over real HTTP.
const ROLE_PERSONAS = ["admin", "lider", "visualizador", "security"] as const;
type Persona = (typeof ROLE_PERSONAS)[number] | "none" | "custom" | "anonymous";

let server: RunningServer;
let matrix: AccessMatrix;
const userPages = {} as Record<Exclude<Persona, "anonymous">, UserAccess>;
const people = {} as Record<Exclude<Persona, "anonymous">, TestUser>;

/** The gate's answer, reduced to the matrix's vocabulary. */
async function observed(path: string, persona: Persona): Promise<"allow" | "deny" | "sign-in"> {
  const headers: Record<string, string> = persona === "anonymous" ? {} : { cookie: `b1_session=${people[persona].token}` };
  const response = await fetch(server.url + path, { redirect: "manual", headers });
  const location = response.headers.get("location") ?? "";
  if (response.status === 200) return "allow";
  if (response.status === 302 && location.startsWith("/auth")) return "sign-in";
  if (response.status === 302 && location === `/acesso-negado?pagina=${encodeURIComponent(path)}`) return "deny";
  // A signed-in person opening /auth is sent home: the page is open to them, there is just nothing to do there.
  if (response.status === 302 && path === "/auth" && location === "/") return "allow";
  throw new Error(`${persona} ${path}: ${response.status} ${location}`);
}

beforeAll(async () => {
  server = await startBuiltServer();
  for (const role of ROLE_PERSONAS) people[role] = await createTestUser(server.db, [role]);
  people.none = await createTestUser(server.db, []);
  const created = await createCustomRole(server.db, {
    name: "convidado-comite",
    description: "Convidados",
    pagePaths: ["/comite-ia", "/audit-logs"],
  });
  if (!created.ok) throw new Error("custom role");
  people.custom = await createTestUser(server.db, []);
  await assignRoleByEmail(server.db, people.custom.email, "convidado-comite");
  const response = await fetch(server.url + "/api/admin/access-matrix", { headers: { cookie: `b1_session=${people.admin.token}` } });
  matrix = (await response.json()) as AccessMatrix;
  // Each user's pages are read one user at a time (the list of every user would not scale).
  for (const [persona, person] of Object.entries(people) as [Exclude<Persona, "anonymous">, TestUser][]) {
    const one = await fetch(`${server.url}/api/admin/access-matrix?user=${person.id}`, {
      headers: { cookie: `b1_session=${people.admin.token}` },
    });
    userPages[persona] = (await one.json()) as UserAccess;
  }
});
afterAll(() => server?.stop());

describe("the access matrix equals the gate's HTTP answers", () => {
  it("lists every page of the route table, content first, and a column per role named as the panel names it", () => {
    expect([...matrix.rows.map((row) => row.path)].sort()).toEqual(ROUTES.map((route) => route.path).sort());
    // Content (the methodology's reading order, in its order) before the restricted, admin, account and public pages.
    const content = ROUTES.filter((route) => route.reading).map((route) => route.path);
    expect(matrix.rows.slice(0, content.length).map((row) => row.path)).toEqual(content);
    expect(matrix.columns.map((column) => column.key)).toEqual(
      expect.arrayContaining(["visitante", "sem-perfil", ...ROLE_PERSONAS.map((role) => `perfil:${role}`), "perfil:convidado-comite"]),
    );
    const labels = Object.fromEntries(matrix.columns.map((column) => [column.key, column.label]));
    expect(labels).toMatchObject({
      "perfil:admin": "Administrador",
      "perfil:lider": "Líder",
      "perfil:visualizador": "Visualizador",
      "perfil:security": "Segurança",
      "perfil:convidado-comite": "convidado-comite",
    });
  });

  const columnOf: Record<Persona, string> = {
    anonymous: "visitante",
    none: "sem-perfil",
    custom: "perfil:convidado-comite",
    ...Object.fromEntries(ROLE_PERSONAS.map((role) => [role, `perfil:${role}`])),
  } as Record<Persona, string>;

  for (const route of ROUTES) {
    it(`${route.path}: each persona's column and user list match the gate`, async () => {
      const row = matrix.rows.find((candidate) => candidate.path === route.path)!;
      for (const persona of Object.keys(columnOf) as Persona[]) {
        const answer = await observed(route.path, persona);
        expect({ persona, decision: row.decisions[columnOf[persona]] }).toEqual({ persona, decision: answer });
        if (persona === "anonymous") continue;
        const listed = userPages[persona].pages.some((page) => page.path === route.path);
        expect({ persona, listed }).toEqual({ persona, listed: answer === "allow" });
      }
    });
  }

  it("says through which role a user opens a page", () => {
    const custom = userPages.custom;
    expect(custom.pages.find((page) => page.path === "/comite-ia")!.via).toEqual(["convidado-comite"]);
    expect(custom.pages.find((page) => page.path === "/faq")!.via).toEqual(["Qualquer usuário conectado"]);
    expect(custom.pages.some((page) => page.path === "/admin-panel")).toBe(false);
  });

  it("answers 404 for an unknown user, and never lists every user", async () => {
    const unknown = await fetch(`${server.url}/api/admin/access-matrix?user=nao-existe`, {
      headers: { cookie: `b1_session=${people.admin.token}` },
    });
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { error: string }).error).toBe("Usuário não encontrado.");
    expect(matrix).not.toHaveProperty("users");
  });

  it("only admins may read it", async () => {
    const response = await fetch(server.url + "/api/admin/access-matrix", { headers: { cookie: `b1_session=${people.security.token}` } });
    expect(response.status).toBe(403);
  });
});
