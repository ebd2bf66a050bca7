/**
 * 'Quem pode abrir esta página' and 'Acesso limitado' through the admin API: bad input is refused
 * with a Portuguese message and a 4xx, nothing changes, the refusal and every change are audited
 * (before and after); two admins writing the same page at once: the later one is told (409).
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLogs } from "../../../db/schema";
import { startBuiltServer, type RunningServer } from "../../support/server";
import { createTestUser, type TestUser } from "../../support/users";

let server: RunningServer;
let admin: TestUser;
let lider: TestUser;

async function call(method: string, urlPath: string, token: string, body?: unknown, raw?: string) {
  return fetch(server.url + urlPath, {
    method,
    redirect: "manual",
    headers: { cookie: `b1_session=${token}`, origin: server.url, "content-type": "application/json" },
    body: raw ?? (body === undefined ? undefined : JSON.stringify(body)),
  });
}

interface Entry {
  path: string;
  roles: string[] | null;
  defaultRoles: string[] | null;
  version: number;
  group: string;
}
async function entry(path: string): Promise<Entry> {
  const list = (await (await call("GET", "/api/admin/page-access", admin.token)).json()) as { pages: Entry[] };
  return list.pages.find((page) => page.path === path)!;
}
const put = (body: unknown, token = admin.token) => call("PUT", "/api/admin/page-access", token, body);
const errorOf = async (response: Response) => ((await response.json()) as { error: string }).error;

beforeAll(async () => {
  server = await startBuiltServer();
  admin = await createTestUser(server.db, ["admin"]);
  lider = await createTestUser(server.db, ["lider"]);
}, 60_000);
afterAll(() => server?.stop());

describe("page access API", () => {
  it("lists content, restricted and admin pages with their default; public and account pages are not listed", async () => {
    expect(await entry("/faq")).toMatchObject({ group: "conteudo", defaultRoles: null, roles: null });
    expect(await entry("/comite-ia")).toMatchObject({ group: "restritas", defaultRoles: ["lider", "admin"], roles: null });
    expect(await entry("/admin-panel")).toMatchObject({ group: "administracao", defaultRoles: ["admin"] });
    const list = (await (await call("GET", "/api/admin/page-access", admin.token)).json()) as { pages: Entry[] };
    expect(list.pages.some((page) => page.path === "/" || page.path === "/conta/sessoes" || page.path === "/auth")).toBe(false);
  });

  it("refuses bad input with a Portuguese 4xx and changes nothing", async () => {
    const before = await entry("/faq");
    const cases: [unknown, number, string][] = [
      [{ path: "/nao-existe", roles: ["lider"], version: 0 }, 404, "Página não encontrada ou sem regra de acesso ajustável"],
      [{ path: "/", roles: ["lider"], version: 0 }, 404, "Página não encontrada ou sem regra de acesso ajustável"],
      [{ path: "/faq", roles: ["perfil-fantasma"], version: before.version }, 400, "Perfil desconhecido: perfil-fantasma"],
      [{ path: "/faq", roles: ["lider"], version: -1 }, 400, "Versão inválida"],
      [{ path: "/faq", roles: ["lider"], version: 1e300 }, 400, "Versão inválida"],
      [{ path: "/faq", roles: "lider", version: 0 }, 400, "Lista de perfis inválida"],
      [{ path: "/faq", roles: ["lider\u202e"], version: before.version }, 400, "Perfil desconhecido: lider\u202e"],
    ];
    for (const [body, status, message] of cases) {
      const response = await put(body);
      expect({ body, status: response.status }).toEqual({ body, status });
      expect(await errorOf(response)).toContain(message);
    }
    for (const raw of [
      '{"__proto__":{"roles":["lider"]},"path":"/faq","version":0}',
      '{"constructor":{"prototype":{}}}',
      "[".repeat(5000),
    ]) {
      const response = await call("PUT", "/api/admin/page-access", admin.token, undefined, raw);
      expect(response.status).toBeGreaterThanOrEqual(400);
      expect(response.status).toBeLessThan(500);
    }
    // Bodies around the 64 KiB limit and far above it: just under is read and refused by the schema, above is 413.
    const sized = (bytes: number) => {
      const skeleton = JSON.stringify({ path: "/faq", roles: [""], version: 0 });
      return JSON.stringify({ path: "/faq", roles: ["x".repeat(bytes - skeleton.length)], version: 0 });
    };
    expect(Buffer.byteLength(sized(64 * 1024 - 1))).toBe(64 * 1024 - 1);
    expect((await call("PUT", "/api/admin/page-access", admin.token, undefined, sized(64 * 1024 - 1))).status).toBe(400);
    expect((await call("PUT", "/api/admin/page-access", admin.token, undefined, sized(64 * 1024 + 1))).status).toBe(413);
    const tenMegabytes = await call("PUT", "/api/admin/page-access", admin.token, undefined, sized(10 * 1024 * 1024)).catch(() => null);
    expect(tenMegabytes === null || tenMegabytes.status === 413).toBe(true);
    expect(await entry("/faq")).toEqual(before);
    const refusals = await server.db.select().from(auditLogs).where(eq(auditLogs.actionType, "admin_page_access_refused"));
    expect(refusals.length).toBeGreaterThanOrEqual(4);
  });

  it("never locks the admins out: a set without admin is saved with it, an empty set means admins only, the admin keeps opening the page", async () => {
    const cases: [string, string[], string[]][] = [
      ["/playbook-produtos", ["lider"], ["admin", "lider"]],
      ["/audit-logs", ["security"], ["admin", "security"]],
      ["/insights", [], ["admin"]],
      ["/admin-panel", ["lider"], ["admin", "lider"]],
    ];
    for (const [target, chosen, saved] of cases) {
      const response = await put({ path: target, roles: chosen, version: (await entry(target)).version });
      expect({ target, status: response.status }).toEqual({ target, status: 200 });
      expect((await entry(target)).roles).toEqual(saved);
      const opened = await call("GET", target, admin.token);
      expect({ target, status: opened.status }).toEqual({ target, status: 200 });
    }
    const audited = (await server.db.select().from(auditLogs).where(eq(auditLogs.actionType, "admin_page_access_updated"))).find((row) =>
      row.actionDetails?.includes('"/playbook-produtos"'),
    );
    expect(JSON.parse(audited!.actionDetails!).after).toEqual({ restrita: true, perfis: ["admin", "lider"] });
    for (const [target] of cases)
      expect((await put({ path: target, roles: null, version: (await entry(target)).version })).status).toBe(200);
  });

  it("refuses a non-admin, no session and a foreign origin", async () => {
    const body = { path: "/faq", roles: ["lider"], version: (await entry("/faq")).version };
    expect((await put(body, lider.token)).status).toBe(403);
    const anonymous = await fetch(server.url + "/api/admin/page-access", {
      method: "PUT",
      headers: { origin: server.url, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    expect(anonymous.status).toBe(401);
    const foreign = await fetch(server.url + "/api/admin/page-access", {
      method: "PUT",
      headers: { origin: "https://evil.example", cookie: `b1_session=${admin.token}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    expect(foreign.status).toBe(403);
    expect((await entry("/faq")).roles).toBeNull();
  });

  it("of 50 identical changes sent at once one wins, the others are told; audited with before and after; restorable", async () => {
    const { version } = await entry("/sementezz");
    const answers = await Promise.all(Array.from({ length: 50 }, () => put({ path: "/sementezz", roles: ["lider", "admin"], version })));
    const statuses = answers.map((response) => response.status).sort();
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.filter((status) => status === 409)).toHaveLength(49);
    const conflict = answers.find((response) => response.status === 409)!;
    expect(await errorOf(conflict)).toMatch(/Outra pessoa alterou o acesso a esta página/);
    expect(await entry("/sementezz")).toMatchObject({ roles: ["admin", "lider"], version: version + 1 });
    const changed = (await server.db.select().from(auditLogs).where(eq(auditLogs.actionType, "admin_page_access_updated"))).filter((row) =>
      row.actionDetails?.includes("/sementezz"),
    );
    expect(changed).toHaveLength(1);
    expect(JSON.parse(changed[0]!.actionDetails!)).toEqual({
      path: "/sementezz",
      before: { restrita: false, perfis: ["Qualquer usuário conectado"] },
      after: { restrita: true, perfis: ["admin", "lider"] },
    });
    const restored = await put({ path: "/sementezz", roles: null, version: version + 1 });
    expect(restored.status).toBe(200);
    expect(await entry("/sementezz")).toMatchObject({ roles: null, version: version + 2 });
  });

  it("a custom role that is a page's only audience cannot be deleted; a system role cannot be limited", async () => {
    const created = await call("POST", "/api/admin/roles", admin.token, {
      name: "parceiros-api",
      description: "",
      pages: ["/5ps"],
      limited: true,
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: number };
    const { version } = await entry("/contato");
    expect((await put({ path: "/contato", roles: ["parceiros-api"], version })).status).toBe(200);
    const refused = await call("DELETE", `/api/admin/roles/${id}`, admin.token);
    expect(refused.status).toBe(409);
    expect(await errorOf(refused)).toContain("este perfil é o único que pode abrir /contato");
    expect((await put({ path: "/contato", roles: null, version: version + 1 })).status).toBe(200);
    expect((await call("DELETE", `/api/admin/roles/${id}`, admin.token)).status).toBe(200);
    const roles = (await (await call("GET", "/api/admin/roles", admin.token)).json()) as { roles: { id: number; name: string }[] };
    const visualizador = roles.roles.find((role) => role.name === "visualizador")!;
    const limitSystem = await call("PUT", `/api/admin/roles/${visualizador.id}`, admin.token, {
      name: "visualizador",
      description: "",
      pages: [],
      limited: true,
    });
    expect(limitSystem.status).toBe(400);
    expect(await errorOf(limitSystem)).toBe("Perfis do sistema não podem ter acesso limitado");
  });

  it("system roles show their real page count (Visualizador: the content pages)", async () => {
    const data = (await (await call("GET", "/api/admin/roles", admin.token)).json()) as {
      roles: { name: string; openPageCount: number }[];
      pages: { group: string }[];
    };
    const contentPages = data.pages.filter((page) => page.group === "conteudo").length;
    expect(contentPages).toBeGreaterThan(10);
    expect(data.roles.find((role) => role.name === "visualizador")!.openPageCount).toBe(contentPages);
    expect(data.roles.find((role) => role.name === "admin")!.openPageCount).toBe(data.pages.length);
  });
});
