import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { roles, userRoles, users } from "../../../db/schema/index";
import { startBuiltServer, type RunningServer } from "../../support/server";
import { createTestUser, type TestUser } from "../../support/users";

let server: RunningServer;
let admin: TestUser;
const PEOPLE = 10_000;

type Page = {
  users: { id: string; email: string; fullName: string; roles: string[] }[];
  total: number;
  page: number;
  pages: number;
  counts: { all: number; byRole: Record<string, number> };
};

async function list(query: string): Promise<{ body: Page; bytes: number; status: number }> {
  const response = await fetch(`${server.url}/api/admin/users${query}`, { headers: { cookie: `b1_session=${admin.token}` } });
  const text = await response.text();
  return { body: JSON.parse(text) as Page, bytes: Buffer.byteLength(text), status: response.status };
}

beforeAll(async () => {
  server = await startBuiltServer();
  admin = await createTestUser(server.db, ["admin"], "admin-lista");
  // 10,000 people through the real schema, in one transaction; every tenth is a líder.
  const roleId = async (name: string) => (await server.db.select().from(roles).where(eq(roles.name, name)))[0]!.id;
  const [viewer, leader] = [await roleId("visualizador"), await roleId("lider")];
  await server.db.transaction(async (tx) => {
    for (let i = 0; i < PEOPLE; i++) {
      const id = `pessoa-${i}`;
      const fullName = i === 4242 ? "João Conceição" : `Pessoa Número ${i}`;
      await tx.insert(users).values({ id, email: `pessoa${i}@b1.example.com`, fullName, passwordHash: "x", emailConfirmedAt: 1 });
      await tx.insert(userRoles).values({ userId: id, roleId: i % 10 === 0 ? leader : viewer });
    }
  });
}, 120_000);
afterAll(() => server?.stop());

describe("GET /api/admin/users at 10,000 users", () => {
  it("finds 'João' by an accent-less, lower-case search in a small payload", async () => {
    const started = performance.now();
    const { body, bytes } = await list("?q=joao%20conceicao");
    const elapsed = performance.now() - started;
    expect(body.users.map((u) => u.fullName)).toEqual(["João Conceição"]);
    expect(body.total).toBe(1);
    expect(bytes).toBeLessThan(2_000);
    const warm: number[] = [];
    for (const q of ["maria", "numero 99", "joao", "LIDER", "pessoa9"]) {
      const again = performance.now();
      await list(`?q=${encodeURIComponent(q)}`);
      warm.push(performance.now() - again);
    }
    console.log(
      `busca em ${PEOPLE} usuários: primeira ${elapsed.toFixed(1)} ms (frio), seguintes ${warm.map((ms) => ms.toFixed(1)).join(" / ")} ms; ${bytes} bytes`,
    );
  });

  it("pages 50 at a time under 100 KB, with counts per role", async () => {
    const first = await list("");
    expect(first.body.users).toHaveLength(50);
    expect(first.body.total).toBe(PEOPLE + 1);
    expect(first.bytes).toBeLessThan(100_000);
    expect(first.body.counts.all).toBe(PEOPLE + 1);
    expect(first.body.counts.byRole).toMatchObject({ lider: PEOPLE / 10, visualizador: PEOPLE - PEOPLE / 10, admin: 1 });
    const third = await list("?page=3");
    expect(third.body.page).toBe(3);
    expect(third.body.users[0]!.id).not.toBe(first.body.users[0]!.id);
    const ids = new Set([...first.body.users, ...third.body.users].map((u) => u.id));
    expect(ids.size).toBe(100);
    console.log(`primeira página: ${first.bytes} bytes`);
  });

  it("filters by role, and searches by the role's Portuguese name", async () => {
    const leaders = await list("?role=lider");
    expect(leaders.body.total).toBe(PEOPLE / 10);
    expect(leaders.body.users.every((u) => u.roles.includes("lider"))).toBe(true);
    const byLabel = await list("?q=LIDER");
    expect(byLabel.body.total).toBe(PEOPLE / 10);
    const combined = await list("?q=pessoa%20numero%2010&role=lider");
    // "Pessoa Número 10", "…100"–"…109" and so on: only the líderes among them.
    expect(combined.body.users.every((u) => u.roles.includes("lider") && u.fullName.startsWith("Pessoa Número 10"))).toBe(true);
    expect(combined.body.counts.all).toBeGreaterThan(combined.body.total);
  });

  it("a search matching most people lists and counts them like a narrow one", async () => {
    const everyone = await list("?q=pessoa");
    // Every person (João by his e-mail), not the admin; in the same order as the unfiltered list.
    expect(everyone.body.total).toBe(PEOPLE);
    expect(everyone.body.counts).toEqual({ all: PEOPLE, byRole: { lider: PEOPLE / 10, visualizador: PEOPLE - PEOPLE / 10 } });
    const unfiltered = [...(await list("")).body.users, ...(await list("?page=2")).body.users].filter((u) => !u.roles.includes("admin"));
    expect(everyone.body.users.map((u) => u.id)).toEqual(unfiltered.slice(0, 50).map((u) => u.id));
    const viewers = await list("?q=visualizador&role=visualizador&page=2");
    expect(viewers.body.total).toBe(PEOPLE - PEOPLE / 10);
    expect(viewers.body.page).toBe(2);
    expect(viewers.body.users.every((u) => u.roles.includes("visualizador"))).toBe(true);
  });

  it("treats search text as text and refuses a bad page with a Portuguese message", async () => {
    expect((await list("?q=%25")).body.total).toBe(0);
    expect((await list("?q=' or 1=1 --")).body.total).toBe(0);
    const bad = await list("?page=abc");
    expect(bad.status).toBe(400);
    expect((bad.body as unknown as { error: string }).error).toBe("Página inválida");
    expect((await list("?page=999999")).body.page).toBe(Math.ceil((PEOPLE + 1) / 50));
  });

  it("follows renames and deletions at once (the search index is kept in step with the users table)", async () => {
    const person = await createTestUser(server.db, ["visualizador"], "renomeada");
    const rename = await fetch(`${server.url}/api/admin/users/${person.id}`, {
      method: "PUT",
      headers: { cookie: `b1_session=${admin.token}`, origin: server.url, "content-type": "application/json" },
      body: JSON.stringify({ fullName: "Íris Valdés", roles: ["visualizador"] }),
    });
    expect(rename.status).toBe(200);
    expect((await list("?q=iris%20valdes")).body.users.map((u) => u.id)).toEqual([person.id]);
    expect((await list(`?q=${encodeURIComponent(person.fullName)}`)).body.users.map((u) => u.id)).not.toContain(person.id);
    await server.db.delete(users).where(eq(users.id, person.id));
    expect((await list("?q=iris%20valdes")).body.total).toBe(0);
  });
});
