/**
 * Issue 66: a page's history (/historico/<page>, with or without a comparison's ?de=…&para=…) is open
 * exactly to who may open the page, at each request: limited roles and the panel's restrictions
 * included. A restricted page's words appear in no other page's history and in no search bundle.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { HistoryManifest } from "../../../src/lib/content/page-history";
import { startBuiltServer, type RunningServer } from "../../support/server";
import { createTestUser, type TestUser } from "../../support/users";

const PERSONAS = { visualizador: ["visualizador"], lider: ["lider"], admin: ["admin"], limitado: ["parceiros"] } as const;
type Persona = keyof typeof PERSONAS;
const LIMITED_ROLE = "parceiros";
const LIMITED_PAGES = ["/5ps", "/glossario", "/comite-ia"];

let server: RunningServer;
const people = {} as Record<Persona, TestUser>;
const manifest = JSON.parse(fs.readFileSync(path.resolve("dist/historico.json"), "utf8")) as HistoryManifest;

async function call(method: string, urlPath: string, token: string, body?: unknown) {
  return fetch(server.url + urlPath, {
    method,
    redirect: "manual",
    headers: { cookie: `b1_session=${token}`, origin: server.url, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

async function decision(urlPath: string, persona: Persona): Promise<string> {
  const response = await call("GET", urlPath, people[persona].token);
  if (response.status === 200) return "allow";
  const location = response.headers.get("location") ?? "";
  if (response.status === 302 && location.startsWith("/acesso-negado")) return `deny ${location}`;
  return `${response.status} ${location}`;
}

/** Every history (and a comparison of its two newest versions) answers like its page, for every persona. */
async function historiesFollowPages() {
  const mismatches: string[] = [];
  await Promise.all(
    (Object.keys(PERSONAS) as Persona[]).map(async (persona) => {
      for (const history of manifest.pages) {
        const page = await decision(history.path, persona);
        const [newest, older] = history.versions;
        const comparison = older ? `?de=${older.id}&para=${newest!.id}` : "";
        for (const target of [`/historico${history.path}`, `/historico${history.path}${comparison}`]) {
          const got = await decision(target, persona);
          if (got !== page) mismatches.push(`${persona} ${target}: ${got}, a página: ${page}`);
        }
      }
    }),
  );
  expect(mismatches.sort()).toEqual([]);
}

async function pageVersion(urlPath: string): Promise<number> {
  const list = (await (await call("GET", "/api/admin/page-access", people.admin.token)).json()) as {
    pages: { path: string; version: number }[];
  };
  return list.pages.find((page) => page.path === urlPath)!.version;
}

async function restrict(target: string, roles: readonly string[] | null) {
  const response = await call("PUT", "/api/admin/page-access", people.admin.token, {
    path: target,
    roles,
    version: await pageVersion(target),
  });
  expect(response.status).toBe(200);
}

beforeAll(async () => {
  server = await startBuiltServer();
  const { assignRoleByEmail } = await import("../../../src/lib/server/admin/roles");
  for (const persona of Object.keys(PERSONAS) as Persona[]) {
    people[persona] = await createTestUser(server.db, [], persona);
    for (const role of PERSONAS[persona])
      if (role !== LIMITED_ROLE) expect(await assignRoleByEmail(server.db, people[persona].email, role)).toBe(true);
  }
  const created = await call("POST", "/api/admin/roles", people.admin.token, {
    name: LIMITED_ROLE,
    description: "Parceiros do ecossistema",
    pages: LIMITED_PAGES,
    limited: true,
  });
  expect(created.status).toBe(201);
  expect(await assignRoleByEmail(server.db, people.limitado.email, LIMITED_ROLE)).toBe(true);
}, 60_000);
afterAll(() => server?.stop());

describe("page history follows the page's access (issue 66)", () => {
  it("the build made a history for every content page, restricted ones included", () => {
    // A shallow clone (CI's default checkout) builds every history page without versions (unit-tested in page-history.test.ts).
    if (manifest.available) expect(manifest.pages.every((page) => page.versions.length > 0)).toBe(true);
    const paths = manifest.pages.map((page) => page.path);
    expect(paths).toEqual(expect.arrayContaining(["/faq", "/etapas-processo", "/comite-ia", "/exemplo-componentes", "/sobre-b1"]));
  });

  it("a limited partner opens the histories of their granted pages only; a restricted page's history is refused like the page", async () => {
    expect(await decision("/historico/5ps", "limitado")).toBe("allow");
    expect(await decision("/historico/comite-ia", "limitado")).toBe("allow");
    expect(await decision("/historico/faq", "limitado")).toBe("deny /acesso-negado?pagina=%2Ffaq");
    expect(await decision("/historico/comite-ia", "visualizador")).toBe("deny /acesso-negado?pagina=%2Fcomite-ia");
    expect(await decision("/historico/exemplo-componentes", "visualizador")).toMatch(/^deny /);
    expect(await decision("/historico/exemplo-componentes", "admin")).toBe("allow");
    // Signed out: sent to sign in, like the page.
    const anonymous = await fetch(`${server.url}/historico/faq?de=a&para=b`, { redirect: "manual" });
    expect([anonymous.status, anonymous.headers.get("location")]).toEqual([302, "/auth?next=%2Fhistorico%2Ffaq%3Fde%3Da%26para%3Db"]);
    // Not a page: an unknown history, a history of a non-content page.
    expect((await call("GET", "/historico/nao-existe", people.admin.token)).status).toBe(404);
    expect((await call("GET", "/historico/admin-panel", people.admin.token)).status).toBe(404);
    expect((await call("GET", "/historico", people.admin.token)).status).toBe(404);
    for (const odd of ["/historico/__proto__", "/historico/constructor", "/historico/prototype"]) {
      expect([odd, (await call("GET", odd, people.admin.token)).status]).toEqual([odd, 404]);
    }
    // A dot-dot spelling is the page it resolves to, decided as that page (the gate normalises before deciding).
    for (const odd of ["/historico/..%2fadmin-panel", "/historico/%2e%2e/admin-panel"]) {
      expect([odd, await decision(odd, "visualizador")]).toEqual([odd, "deny /acesso-negado?pagina=%2Fadmin-panel"]);
    }
    // The gate's own spellings: a trailing slash is the same page; any method but GET/HEAD is refused before a byte is read.
    expect(await decision("/historico/faq/", "visualizador")).toBe("allow");
    expect(
      (await call("POST", "/historico/faq", people.visualizador.token, { __proto__: { x: 1 }, a: "x".repeat(64 * 1024 + 1) })).status,
    ).toBe(405);
    // A comparison's query names versions only for the browser: nothing in it changes the answer.
    const odd = `/historico/comite-ia?de=__proto__&para=${"9".repeat(400)}&constructor=1&x=%E2%80%AE`;
    expect(await decision(odd, "visualizador")).toBe("deny /acesso-negado?pagina=%2Fcomite-ia");
    expect(await decision(odd, "lider")).toBe("allow");
    const same = await Promise.all(Array.from({ length: 50 }, () => decision("/historico/comite-ia", "limitado")));
    expect(new Set(same)).toEqual(new Set(["allow"]));
  }, 60_000);

  it("every history and comparison answers like its page, before and after the panel restricts /faq and /5ps, at the next request", async () => {
    await historiesFollowPages();
    await restrict("/faq", ["lider"]);
    await restrict("/5ps", ["lider"]);
    expect(await decision("/historico/faq", "visualizador")).toBe("deny /acesso-negado?pagina=%2Ffaq");
    expect(await decision("/historico/5ps", "limitado")).toBe("deny /acesso-negado?pagina=%2F5ps");
    expect(await decision("/historico/faq", "lider")).toBe("allow");
    await historiesFollowPages();
    await restrict("/faq", null);
    await restrict("/5ps", null);
    expect(await decision("/historico/faq", "visualizador")).toBe("allow");
    expect(await decision("/historico/5ps", "limitado")).toBe("allow");
  }, 120_000);

  it("a restricted page's words appear in no other page's history, and no history is searchable", async () => {
    const committee = manifest.pages.find((page) => page.path === "/comite-ia")!;
    const phrases = committee.texts.filter((text) => text.length > 40).map((text) => text.slice(0, 40));
    expect(phrases.length > 0).toBe(manifest.available);
    for (const history of manifest.pages.filter((page) => page.path !== "/comite-ia")) {
      const html = await (await call("GET", `/historico${history.path}`, people.admin.token)).text();
      for (const phrase of phrases) expect(html.includes(phrase), `${history.path} mostra "${phrase}"`).toBe(false);
    }
    const searchIndex = fs.readFileSync(path.resolve("dist/search/indice.json"), "utf8");
    expect(searchIndex).not.toContain("/historico");
    for (const file of fs.readdirSync(path.resolve("dist/pages/historico"), { recursive: true }).map(String)) {
      if (file.endsWith(".html"))
        expect(fs.readFileSync(path.resolve("dist/pages/historico", file), "utf8")).not.toContain("data-pagefind-body");
    }
  }, 60_000);
});
