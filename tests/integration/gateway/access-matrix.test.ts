import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { auditLogs, roles } from "../../../db/schema/index";
import { readContentManifest } from "../../../src/lib/content-manifest";
import { ROUTES, STATIC_ROUTES } from "../../../src/lib/routes";
import { createCustomRole, assignRoleByEmail, replaceRolePermissions } from "../../../src/lib/server/admin/roles";
import { startBuiltServer, type RunningServer } from "../../support/server";
import { createTestUser, type TestUser } from "../../support/users";

type Persona = "anonymous" | "visualizador" | "lider" | "security" | "admin" | "custom" | "none";
const PERSONAS: Persona[] = ["anonymous", "visualizador", "lider", "security", "admin", "custom", "none"];

const PUBLIC = ["/", "/auth", "/signup-error", "/link-expired", "/confirmation-sent", "/dois-fatores"];
const SIGNED_IN = [
  "/acesso-negado",
  "/conta/dois-fatores",
  "/conta/sessoes",
  "/conta/notificacoes",
  "/leitura",
  "/novidades",
  "/privacidade",
  "/home-metodologia",
  "/metodologia-ai-first",
  "/ai-first-fast-track",
  "/5ps",
  "/etapas-processo",
  "/templates",
  "/playbook-produtos",
  "/ferramentas-ia",
  "/trilha-interativa",
  "/faq",
  "/glossario",
  "/contato",
  "/sobre-b1",
  "/sementezz",
];
/** Who may open each role-gated page (the spec's table plus the custom role granted /comite-ia). */
const GATED: Record<string, Persona[]> = {
  "/comite-ia": ["lider", "admin", "custom"],
  "/audit-logs": ["admin", "security"],
  "/leitura/relatorio": ["lider", "admin"],
  "/insights": ["admin"],
  "/admin-panel": ["admin"],
};

/** Pages editors added as content files: open to the roles their frontmatter lists. */
const CONTENT_PAGES = readContentManifest();
for (const page of CONTENT_PAGES) {
  if (page.access === "signed-in") SIGNED_IN.push(page.path);
  else GATED[page.path] = [...page.access];
}

/** The exact answer each persona must get: status and redirect target. */
function expected(path: string, persona: Persona): { status: number; location?: string } {
  if (PUBLIC.includes(path)) {
    if (path === "/auth" && persona !== "anonymous") return { status: 302, location: "/" };
    return { status: 200 };
  }
  if (persona === "anonymous") return { status: 302, location: `/auth?next=${encodeURIComponent(path)}` };
  if (SIGNED_IN.includes(path)) return { status: 200 };
  return GATED[path]!.includes(persona) ? { status: 200 } : { status: 302, location: `/acesso-negado?pagina=${encodeURIComponent(path)}` };
}

let server: RunningServer;
const users = {} as Record<Exclude<Persona, "anonymous">, TestUser>;
let customRoleId: number;

async function get(path: string, persona: Persona, init: RequestInit = {}) {
  const headers = new Headers(init.headers);
  if (persona !== "anonymous") headers.set("cookie", `b1_session=${users[persona].token}`);
  return fetch(server.url + path, { redirect: "manual", ...init, headers });
}

beforeAll(async () => {
  server = await startBuiltServer();
  for (const role of ["visualizador", "lider", "security", "admin"] as const) users[role] = await createTestUser(server.db, [role]);
  users.none = await createTestUser(server.db, []);
  const created = await createCustomRole(server.db, {
    name: "comite-convidado",
    description: "Convidados do comitê",
    pagePaths: ["/comite-ia"],
  });
  if (!created.ok) throw new Error("role");
  customRoleId = created.roleId;
  users.custom = await createTestUser(server.db, []);
  await assignRoleByEmail(server.db, users.custom.email, "comite-convidado");
});

afterAll(async () => {
  await server?.stop();
});

describe("route table × personas", () => {
  it("covers every route of the route table", () => {
    const contentPaths = CONTENT_PAGES.map((page) => page.path);
    const listed = [...PUBLIC, ...SIGNED_IN, ...Object.keys(GATED)].filter((path) => !contentPaths.includes(path));
    expect(listed.sort()).toEqual(STATIC_ROUTES.map((r) => r.path).sort());
    expect(ROUTES.map((r) => r.path).sort()).toEqual([...listed, ...contentPaths].sort());
  });

  for (const route of ROUTES) {
    it(`${route.path} answers each persona as the table says`, async () => {
      for (const persona of PERSONAS) {
        const response = await get(route.path, persona);
        const want = expected(route.path, persona);
        expect({ persona, status: response.status, location: response.headers.get("location") ?? undefined }).toEqual({
          persona,
          ...want,
        });
      }
    });
  }

  it("answers unknown paths with the 404 page for everyone", async () => {
    for (const persona of PERSONAS) {
      const response = await get("/nao-existe/de-jeito-nenhum", persona);
      expect(response.status).toBe(404);
      const html = await response.text();
      expect(html).toContain("Oops! Page not found");
      expect(html).toContain("Return to Home");
    }
    // Request lines are written in batches (up to 200 ms later).
    const logged = () =>
      server
        .output()
        .split("\n")
        .filter((line) => line.startsWith("{"))
        .map((line) => JSON.parse(line) as Record<string, unknown>);
    await expect
      .poll(logged)
      .toContainEqual(expect.objectContaining({ method: "GET", path: "/nao-existe/de-jeito-nenhum", status: 404, msg: "requisição" }));
  });

  it("takes a revoked custom-role permission into account on the very next request", async () => {
    expect((await get("/comite-ia", "custom")).status).toBe(200);
    await server.db.transaction((tx) => replaceRolePermissions(tx, customRoleId, []));
    const response = await get("/comite-ia", "custom");
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/acesso-negado?pagina=%2Fcomite-ia");
    await server.db.transaction((tx) => replaceRolePermissions(tx, customRoleId, ["/comite-ia"]));
    expect((await get("/comite-ia", "custom")).status).toBe(200);
  });

  it("never lets a custom role grant the admin panel", async () => {
    await server.db.transaction((tx) => replaceRolePermissions(tx, customRoleId, ["/comite-ia", "/admin-panel"]));
    expect((await get("/admin-panel", "custom")).headers.get("location")).toBe("/acesso-negado?pagina=%2Fadmin-panel");
  });

  it("records denials in the audit log", async () => {
    await get("/admin-panel", "visualizador");
    const rows = await server.db.select().from(auditLogs).where(eq(auditLogs.userId, users.visualizador.id));
    const denial = rows.find((row) => row.actionType === "page_access_denied" && row.actionDetails?.includes("/admin-panel"));
    expect(denial?.result).toBe("blocked");
    expect(JSON.parse(denial!.actionDetails!)).toMatchObject({ path: "/admin-panel" });
  });

  it("records which role opened a page, and which roles would have opened a denied one", async () => {
    const detailsOf = async (persona: Exclude<Persona, "anonymous">, actionType: string, path: string) => {
      const rows = await server.db.select().from(auditLogs).where(eq(auditLogs.userId, users[persona].id));
      const row = rows.find((entry) => entry.actionType === actionType && JSON.parse(entry.actionDetails!).path === path);
      return JSON.parse(row!.actionDetails!) as Record<string, unknown>;
    };
    expect(await detailsOf("custom", "page_access_granted", "/comite-ia")).toMatchObject({ grantedBy: ["comite-convidado"] });
    expect(await detailsOf("admin", "page_access_granted", "/comite-ia")).toMatchObject({ grantedBy: ["admin"] });
    expect(await detailsOf("security", "page_access_granted", "/audit-logs")).toMatchObject({ grantedBy: ["security"] });
    expect(await detailsOf("visualizador", "page_access_denied", "/comite-ia")).toMatchObject({
      requiredRoles: ["lider", "admin", "comite-convidado"],
    });
    expect(await detailsOf("none", "page_access_denied", "/admin-panel")).toMatchObject({ requiredRoles: ["admin"] });
  });

  it("keeps the system roles seeded", async () => {
    const names = (await server.db.select({ name: roles.name }).from(roles).where(eq(roles.isSystem, true))).map((r) => r.name);
    expect(names.sort()).toEqual(["admin", "lider", "security", "visualizador"]);
  });
});

describe("leaks", () => {
  const protectedRoutes = ROUTES.filter((r) => r.access.kind !== "public");
  const variants = (path: string) => [
    path,
    `${path}/`,
    `${path}/index.html`,
    `${path}%2Findex.html`,
    `${path}%2findex.html`,
    `/x/..${path}`,
    `/%2e%2e${path}`,
    `/${path}`,
    `${path}//`,
    `${path}/.`,
  ];

  it("never serves a protected page to anonymous visitors, whatever the spelling", async () => {
    for (const route of protectedRoutes) {
      for (const variant of variants(route.path)) {
        const response = await fetch(server.url + variant, { redirect: "manual" });
        const body = await response.text();
        expect([302, 404], `${variant} → ${response.status}`).toContain(response.status);
        expect(body, variant).not.toContain(`<title>${route.name} | B1 Method Hub</title>`);
      }
    }
  });

  it("does not serve raw HTML files from the build folder", async () => {
    for (const raw of ["/comite-ia/index.html", "/pages/comite-ia/index.html", "/dist/pages/comite-ia/index.html", "/client/404.html"]) {
      const response = await fetch(server.url + raw, { redirect: "manual" });
      expect(response.status).not.toBe(200);
    }
  });

  it("gives anonymous requests for search index and data endpoints no content", async () => {
    for (const path of ["/pagefind/pagefind.js", "/pagefind/pagefind-entry.json", "/api/trail", "/api/admin/users", "/api/audit-logs"]) {
      const response = await fetch(server.url + path, { redirect: "manual" });
      expect(response.status, path).toBe(401);
      expect(await response.json()).toEqual({ error: "Não autenticado" });
    }
  });

  it("answers API requests of the wrong role with 403 JSON, not a redirect", async () => {
    const response = await get("/api/admin/users", "lider");
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ error: "Acesso negado" });
  });
});

describe("responses", () => {
  it("marks protected pages private and no-store, and hashed assets immutable", async () => {
    const page = await get("/templates", "visualizador");
    expect(page.headers.get("cache-control")).toBe("private, no-store");
    const html = await page.text();
    const asset = /\/_astro\/[^"']+\.css/.exec(html)?.[0];
    expect(asset).toBeTruthy();
    const css = await fetch(server.url + asset!, { headers: { "accept-encoding": "br" } });
    expect(css.status).toBe(200);
    expect(css.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(css.headers.get("content-encoding")).toBe("br");
    // A public asset revalidates with its ETag; a page kept by nobody carries none.
    const again = await fetch(server.url + asset!, { headers: { "if-none-match": css.headers.get("etag")! } });
    expect(again.status).toBe(304);
    expect(page.headers.get("etag")).toBeNull();
  });

  /** The links of the main navigation bar in a page. */
  const navLinks = (html: string) => {
    const nav = /<nav aria-label="Principal"[^>]*>([\s\S]*?)<\/nav>/.exec(html)?.[1] ?? "";
    return [...nav.matchAll(/href="([^"]+)"/g)].map((m) => m[1]);
  };

  it("shows the navigation each role may see and hides the rest", async () => {
    const visualizador = await (await get("/templates", "visualizador")).text();
    expect(navLinks(visualizador)).toEqual([
      "/",
      "/home-metodologia",
      "/5ps",
      "/etapas-processo",
      "/templates",
      "/faq",
      "/glossario",
      "/contato",
      // The 'Mais' menu: pages off the bar, each one the visualizador may open.
      "/novidades",
      "/metodologia-ai-first",
      "/playbook-produtos",
      "/ferramentas-ia",
      "/trilha-interativa",
      "/sobre-b1",
      "/sementezz",
    ]);
    expect(visualizador).not.toContain("Painel Admin");
    const admin = await (await get("/templates", "admin")).text();
    expect(navLinks(admin)).toContain("/comite-ia");
    expect(admin).toContain("Painel Admin");
    const anonymous = await (await get("/", "anonymous")).text();
    expect(anonymous).toContain("Acesso Restrito");
    expect(navLinks(anonymous)).toEqual(["/"]);
    expect(anonymous).not.toContain("<!--b1:if");
    expect(anonymous).not.toContain("data-search-open");
  });

  it("refuses page methods other than GET/HEAD", async () => {
    const response = await get("/templates", "visualizador", { method: "POST" });
    expect(response.status).toBe(405);
  });

  it("signs out only with a same-origin POST and ends the session", async () => {
    const user = await createTestUser(server.db, ["visualizador"]);
    const headers = { cookie: `b1_session=${user.token}` };
    const forged = await fetch(server.url + "/api/auth/sign-out", { method: "POST", headers, redirect: "manual" });
    expect(forged.status).toBe(403);
    expect((await fetch(server.url + "/faq", { headers, redirect: "manual" })).status).toBe(200);
    const ok = await fetch(server.url + "/api/auth/sign-out", {
      method: "POST",
      headers: { ...headers, origin: server.url },
      redirect: "manual",
    });
    expect(ok.status).toBe(303);
    expect(ok.headers.get("set-cookie")).toContain("Max-Age=0");
    expect((await fetch(server.url + "/faq", { headers, redirect: "manual" })).status).toBe(302);
    const logout = await server.db.select().from(auditLogs).where(eq(auditLogs.userId, user.id));
    expect(logout.map((row) => row.actionType)).toContain("user_logout");
  });
});
