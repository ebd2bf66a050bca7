/**
 * Access II: limited roles and pages restricted from the admin panel. Every page × every persona over
 * real HTTP, before and after a restriction made through the panel's API, against the model the
 * issue states (written out here on its own, not through the gate's decideAccess); the access
 * matrix must say the same. Downloads follow the pages that offer them.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AccessMatrix } from "../../../src/lib/admin/access-matrix";
import { ROUTES, type RouteRule } from "../../../src/lib/routes";
import { startBuiltServer, type RunningServer } from "../../support/server";
import { createTestUser, type TestUser } from "../../support/users";

const PERSONAS = {
  visualizador: ["visualizador"],
  lider: ["lider"],
  admin: ["admin"],
  security: ["security"],
  limitado: ["parceiros"],
  "limitado+visualizador": ["parceiros", "visualizador"],
  "sem-perfil": [],
} as const satisfies Record<string, readonly string[]>;
type Persona = keyof typeof PERSONAS;
const LIMITED_ROLE = "parceiros";
/** The limited role's checked pages: two content pages and one restricted page. */
const LIMITED_PAGES = ["/5ps", "/glossario", "/comite-ia"];

/**
 * The issues' model: restrictions replace the default; all-limited persons open only their pages; most
 * permissive wins; the admin role opens every page, whatever a restriction says (issue 64: no lock-out).
 */
function expected(route: RouteRule, persona: Persona, restrictions: ReadonlyMap<string, readonly string[]>): "allow" | "deny" {
  const held: readonly string[] = PERSONAS[persona];
  if (route.access.kind === "public") return "allow";
  if (held.includes("admin")) return "allow";
  const restricted = restrictions.get(route.path);
  if (restricted) return held.some((role) => restricted.includes(role)) ? "allow" : "deny";
  const limited = held.length > 0 && held.every((role) => role === LIMITED_ROLE);
  if (route.access.kind === "signed-in") return limited && route.reading && !LIMITED_PAGES.includes(route.path) ? "deny" : "allow";
  if (route.access.roles.some((role) => held.includes(role))) return "allow";
  return route.access.grantable && held.includes(LIMITED_ROLE) && LIMITED_PAGES.includes(route.path) ? "allow" : "deny";
}

let server: RunningServer;
const people = {} as Record<Persona, TestUser>;

async function call(method: string, urlPath: string, token: string, body?: unknown) {
  return fetch(server.url + urlPath, {
    method,
    redirect: "manual",
    headers: { cookie: `b1_session=${token}`, origin: server.url, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

async function observed(urlPath: string, persona: Persona): Promise<"allow" | "deny"> {
  const response = await call("GET", urlPath, people[persona].token);
  const location = response.headers.get("location") ?? "";
  if (response.status === 200) return "allow";
  if (response.status === 302 && location.startsWith("/acesso-negado")) return "deny";
  if (response.status === 302 && urlPath === "/auth" && location === "/") return "allow";
  throw new Error(`${persona} ${urlPath}: ${response.status} ${location}`);
}

/** Every page × persona: the gate's answer, the model's and the matrix's (per-user view). */
async function checkEveryPage(restrictions: ReadonlyMap<string, readonly string[]>) {
  const mismatches: string[] = [];
  // One persona after another would take ~4× longer on PostgreSQL; the personas' requests run side by side.
  const checkPersona = async (persona: Persona) => {
    const listing = (await (await call("GET", `/api/admin/access-matrix?user=${people[persona].id}`, people.admin.token)).json()) as {
      pages: { path: string }[];
    };
    for (const route of ROUTES) {
      const want = expected(route, persona, restrictions);
      const got = await observed(route.path, persona);
      const listed = listing.pages.some((page) => page.path === route.path) ? "allow" : "deny";
      if (got !== want || listed !== want) mismatches.push(`${persona} ${route.path}: gate ${got}, matriz ${listed}, esperado ${want}`);
    }
  };
  await Promise.all((Object.keys(PERSONAS) as Persona[]).map(checkPersona));
  expect(mismatches.sort()).toEqual([]);
}

/** Files under content/arquivos/ follow the pages that list them. */
async function checkDownloads(restrictions: ReadonlyMap<string, readonly string[]>) {
  const manifest = JSON.parse(fs.readFileSync(path.resolve("dist/downloads.json"), "utf8")) as {
    downloads: { path: string; pages: string[] }[];
  };
  expect(manifest.downloads.length).toBeGreaterThan(0);
  for (const download of manifest.downloads) {
    for (const persona of ["limitado", "visualizador"] as const) {
      const open = download.pages.some(
        (page) =>
          expected(
            ROUTES.find((route) => route.path === page)!,
            persona,
            restrictions,
          ) === "allow",
      );
      const response = await call("GET", download.path, people[persona].token);
      expect({ persona, file: download.path, status: response.status }).toEqual({
        persona,
        file: download.path,
        status: open ? 200 : 302,
      });
    }
  }
}

beforeAll(async () => {
  server = await startBuiltServer();
  for (const persona of Object.keys(PERSONAS) as Persona[]) people[persona] = await createTestUser(server.db, [], persona);
  for (const role of ["visualizador", "lider", "admin", "security"]) {
    for (const persona of Object.keys(PERSONAS) as Persona[]) {
      if ((PERSONAS[persona] as readonly string[]).includes(role)) await assign(persona, role);
    }
  }
  const created = await call("POST", "/api/admin/roles", people.admin.token, {
    name: LIMITED_ROLE,
    description: "Parceiros do ecossistema",
    pages: LIMITED_PAGES,
    limited: true,
  });
  expect(created.status).toBe(201);
  await assign("limitado", LIMITED_ROLE);
  await assign("limitado+visualizador", LIMITED_ROLE);
}, 60_000);
afterAll(() => server?.stop());

async function assign(persona: Persona, role: string) {
  const { assignRoleByEmail } = await import("../../../src/lib/server/admin/roles");
  expect(await assignRoleByEmail(server.db, people[persona].email, role)).toBe(true);
}

async function pageVersion(urlPath: string): Promise<number> {
  const list = (await (await call("GET", "/api/admin/page-access", people.admin.token)).json()) as {
    pages: { path: string; version: number }[];
  };
  return list.pages.find((page) => page.path === urlPath)!.version;
}

describe("access II: limited roles and restrictions from the panel", () => {
  it("every page × persona follows the model before any restriction (downloads too)", async () => {
    await checkEveryPage(new Map());
    await checkDownloads(new Map());
  }, 60_000);

  it("after restricting /faq to lider + parceiros, /comite-ia to admin, /templates and /audit-logs without admin, the next request follows (admin keeps every page); restoring brings the default back", async () => {
    const targets = [
      ["/faq", ["lider", LIMITED_ROLE]],
      ["/comite-ia", ["admin"]],
      ["/templates", ["visualizador"]],
      ["/audit-logs", ["security"]],
    ] as const;
    for (const [target, roles] of targets) {
      const response = await call("PUT", "/api/admin/page-access", people.admin.token, {
        path: target,
        roles,
        version: await pageVersion(target),
      });
      expect(response.status).toBe(200);
    }
    const restrictions = new Map<string, readonly string[]>([
      ["/faq", ["lider", LIMITED_ROLE]],
      ["/comite-ia", ["admin"]],
      ["/templates", ["visualizador"]],
      ["/audit-logs", ["security"]],
    ]);
    await checkEveryPage(restrictions);
    // The saved audience names the admin role even when the admin left it out.
    const listed = (await (await call("GET", "/api/admin/page-access", people.admin.token)).json()) as {
      pages: { path: string; roles: string[] | null }[];
    };
    expect(listed.pages.find((page) => page.path === "/templates")!.roles).toEqual(["admin", "visualizador"]);
    expect(listed.pages.find((page) => page.path === "/audit-logs")!.roles).toEqual(["admin", "security"]);
    expect((await call("GET", "/api/audit-logs", people.admin.token)).status).toBe(200);
    await checkDownloads(restrictions);
    const matrix = (await (await call("GET", "/api/admin/access-matrix", people.admin.token)).json()) as AccessMatrix;
    const faq = matrix.rows.find((row) => row.path === "/faq")!;
    expect(faq.decisions).toMatchObject({ "perfil:visualizador": "deny", "perfil:lider": "allow", [`perfil:${LIMITED_ROLE}`]: "allow" });

    for (const [target] of targets) {
      const restored = await call("PUT", "/api/admin/page-access", people.admin.token, {
        path: target,
        roles: null,
        version: await pageVersion(target),
      });
      expect(restored.status).toBe(200);
    }
    await checkEveryPage(new Map());
  }, 120_000);
});
