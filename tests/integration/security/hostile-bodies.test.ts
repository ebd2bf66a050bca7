/**
 * Security IV: the hostile-input suite every JSON and SCIM endpoint goes through, so the class of
 * bug found in provisioning (prototype pollution, a crash on a large body, a 500 on deep nesting)
 * cannot come back through a new endpoint. Every write endpoint under src/pages/api (and those the gate answers itself) is found on
 * disk; one without a template here fails the first test, so a new endpoint is attacked the day it
 * is added. Each attack must get a 4xx, leave the data untouched and the process alive; at the end
 * no page carries a header planted through `Object.prototype` and no worker thread ran a module
 * planted in `execArgv`. Both engines.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  directoryGroupMembers,
  directoryGroups,
  emailTokens,
  pages,
  readingConfirmations,
  rolePermissions,
  roles,
  trailProgress,
  twoFactorSecrets,
  userRoles,
  users,
} from "../../../db/schema/index";
import { startBuiltServer, type RunningServer } from "../../support/server";
import { SCIM_TOKEN } from "../../support/scim";
import { createTestUser, type TestUser } from "../../support/users";

const API_DIR = "src/pages/api";
/** Write endpoints under /api that the gate answers without Astro (no file under src/pages/api). */
const GATE_ENDPOINTS = ["POST /api/busca"];
const USER = "urn:ietf:params:scim:schemas:core:2.0:User";
const ENTERPRISE = "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User";
const GROUP = "urn:ietf:params:scim:schemas:core:2.0:Group";
const PATCH = "urn:ietf:params:scim:api:messages:2.0:PatchOp";
const MARKER = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "b1-hostile-")), "ran");
const MODULE = `data:text/javascript,import fs from "node:fs"; fs.writeFileSync(${JSON.stringify(MARKER)}, "ran")`;

/** Every `METHOD /api/…` route with a handler that takes a request, from the files ([id] kept as written). */
function writeEndpoints(): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (entry.name.endsWith(".ts")) {
        const route = `/${path
          .relative("src/pages", file)
          .replace(/\.ts$/, "")
          .replace(/\/index$/, "")}`;
        for (const [, method] of fs.readFileSync(file, "utf8").matchAll(/export (?:const|async function) (POST|PUT|PATCH|DELETE)\b/g))
          found.push(`${method} ${route}`);
      }
    }
  };
  walk(API_DIR);
  // Answered by the gate itself, before Astro (src/server/search-beacon.ts): attacked all the same.
  found.push(...GATE_ENDPOINTS);
  return found.sort();
}

interface Ids {
  user: string;
  role: string;
  scimUser: string;
  scimGroup: string;
}

/** A body each endpoint would accept in shape; the attacks start from it. Bodyless ones are listed with null. */
const TEMPLATES: Record<string, ((ids: Ids) => Record<string, unknown>) | null> = {
  "POST /api/auth/sign-in": () => ({ email: "pessoa@b1.example.com", password: "Senha@Teste1" }),
  "POST /api/auth/sign-up": () => ({ email: "nova@b1.example.com", password: "Senha@Teste1", fullName: "Nova Pessoa" }),
  "POST /api/auth/reset-request": () => ({ email: "pessoa@b1.example.com" }),
  "POST /api/auth/resend-link": () => ({ email: "pessoa@b1.example.com" }),
  "POST /api/auth/update-password": () => ({ token: "abcdef", password: "Senha@Teste1" }),
  "POST /api/auth/confirm": () => ({ token: "abcdef" }),
  "POST /api/auth/two-factor": () => ({ code: "123456" }),
  "POST /api/auth/sign-out": null,
  "POST /api/conta/dois-fatores": null,
  "PUT /api/conta/dois-fatores": () => ({ code: "123456" }),
  "PUT /api/conta/notificacoes": () => ({ weeklyDigest: true }),
  "DELETE /api/conta/sessoes": null,
  "DELETE /api/conta/sessoes/[handle]": null,
  "POST /api/leitura/confirmacoes": () => ({ pagina: "/valores", versao: 1 }),
  "PUT /api/trail": () => ({ completed: ["ideacao"], answers: { ideacao: { "0": "resposta" } }, projectName: "Projeto", updatedAt: 1 }),
  "POST /api/admin/users": () => ({
    email: "outra@b1.example.com",
    fullName: "Outra Pessoa",
    password: "Senha@Teste1",
    roles: ["visualizador"],
  }),
  "PUT /api/admin/users/[id]": () => ({ fullName: "Nome Novo", roles: ["visualizador"] }),
  "DELETE /api/admin/users/[id]": null,
  "DELETE /api/admin/users/[id]/sessions": null,
  "DELETE /api/admin/users/[id]/two-factor": null,
  "POST /api/admin/users/[id]/directory": null,
  "POST /api/admin/roles": () => ({ name: "perfil novo", description: "texto", pages: ["/valores"] }),
  "PUT /api/admin/roles/[id]": () => ({ name: "perfil novo", description: "texto", pages: ["/valores"] }),
  "DELETE /api/admin/roles/[id]": null,
  "PUT /api/admin/page-access": () => ({ path: "/valores", roles: ["visualizador"], version: 0 }),
  "POST /api/admin/integracoes": () => ({ destination: "webhook", action: "pause" }),
  "POST /api/opiniao": () => ({ pagina: "/valores", versao: "1", ajudou: true }),
  "POST /api/busca": () => ({ consulta: "canvas", resultados: 3, aberto: null }),
  "PATCH /api/insights/comentarios": () => ({ id: "00000000-0000-4000-8000-000000000000", status: "resolvida" }),
};

/** The SCIM writes, with a body each would accept. */
const SCIM_TEMPLATES: Record<string, (ids: Ids) => Record<string, unknown>> = {
  "POST /scim/v2/Users": () => ({
    schemas: [USER, ENTERPRISE],
    userName: "hostil@b1.example.com",
    externalId: "ext-1",
    name: { givenName: "Hostil", familyName: "Pessoa" },
    displayName: "Hostil Pessoa",
    title: "Analista",
    emails: [{ value: "hostil@b1.example.com", type: "work", primary: true }],
    [ENTERPRISE]: { department: "Vendas", manager: { value: "m-1" } },
  }),
  "PUT /scim/v2/Users/[id]": () => ({ schemas: [USER], userName: "alvo-scim@b1.example.com", displayName: "Alvo", title: "Gerente" }),
  "PATCH /scim/v2/Users/[id]": () => ({
    schemas: [PATCH],
    Operations: [
      { op: "replace", path: "title", value: "Diretora" },
      { op: "replace", value: { displayName: "Nome", name: { givenName: "Nome" } } },
    ],
  }),
  "POST /scim/v2/Groups": () => ({ schemas: [GROUP], displayName: "grupo hostil", members: [] }),
  "PUT /scim/v2/Groups/[id]": () => ({ schemas: [GROUP], displayName: "grupo alvo", members: [] }),
  "PATCH /scim/v2/Groups/[id]": () => ({ schemas: [PATCH], Operations: [{ op: "replace", path: "displayName", value: "grupo novo" }] }),
};

/** Fields that name something (an address, a login, a code): a look-alike character there is refused, not stored. */
const IDENTIFIER_FIELDS = new Set(["email", "userName", "code", "token"]);
const CONTROL_AND_BIDI = ["\u0007", "\u202e", "\u2066", "\u200b", "\ufeff", "\u001b[31m"];
const CONFUSABLES = ["\u0430" /* Cyrillic a */, "\u212a" /* Kelvin sign */, "\uff41" /* fullwidth a */];
const HUGE_NUMBERS = [1e308, -1e308, 9007199254740993, Number.MAX_SAFE_INTEGER * 1024];

/** The template with the string at each position in turn changed by `change`; `where` names the position. */
function eachString(template: unknown, change: (value: string, key: string) => unknown): { body: unknown; where: string }[] {
  const out: { body: unknown; where: string }[] = [];
  const visit = (value: unknown, key: string, where: string, rebuild: (replacement: unknown) => unknown) => {
    if (typeof value === "string") {
      const changed = change(value, key);
      if (changed !== undefined) out.push({ body: rebuild(changed), where });
    } else if (Array.isArray(value)) {
      value.forEach((item, i) => visit(item, key, `${where}[${i}]`, (r) => rebuild(value.map((old, j) => (i === j ? r : old)))));
    } else if (value && typeof value === "object") {
      for (const [name, item] of Object.entries(value)) {
        visit(item, name, `${where}.${name}`, (r) => rebuild({ ...(value as object), [name]: r }));
      }
    }
  };
  visit(template, "", "$", (replacement) => replacement);
  return out;
}

/** Raw JSON texts with a prototype key at the top and inside each object of the template. */
function prototypeKeyBodies(template: Record<string, unknown>): string[] {
  const planted = `{"polluted":"yes","X-Polluted":"1","execArgv":["--import",${JSON.stringify(MODULE)}]}`;
  const text = JSON.stringify(template);
  const bodies = [`{"__proto__":${planted},${text.slice(1)}`, `{"constructor":{"prototype":${planted}},${text.slice(1)}`];
  bodies.push(`{"prototype":${planted},${text.slice(1)}`, `{"\\u005f_proto__":${planted},${text.slice(1)}`);
  // Inside every nested object: each `{"` after the first opens one.
  for (let at = text.indexOf('{"', 1); at !== -1; at = text.indexOf('{"', at + 1)) {
    bodies.push(`${text.slice(0, at + 1)}"__proto__":${planted},${text.slice(at + 1)}`);
  }
  return bodies;
}

/** The template as JSON of exactly `bytes` bytes: its first free-text string grows until the body is that large. */
function sized(template: Record<string, unknown>, bytes: number): string {
  const grown = eachString(template, (value, key) =>
    key === "schemas" || key === "op" || key === "path" ? undefined : `${value}\u0001GROW`,
  );
  // A template with no free text (a switch) has its first value turned into the growing text.
  const first = grown[0] ?? { body: { ...template, [Object.keys(template)[0]!]: "\u0001GROW" } };
  const marked = JSON.stringify(first.body);
  const growth = bytes - (marked.length - "\\u0001GROW".length);
  return marked.replace("\\u0001GROW", "x".repeat(Math.max(0, growth)));
}

describe("hostile bodies on every JSON and SCIM endpoint", () => {
  let server: RunningServer;
  let admin: TestUser;
  let ids: Ids;

  beforeAll(async () => {
    server = await startBuiltServer({ SCIM_TOKEN, RATE_LIMIT_MULTIPLIER: "1000000" });
    admin = await createTestUser(server.db, ["admin"], "admin-hostil");
    const target = await createTestUser(server.db, ["visualizador"], "alvo-hostil");
    const [role] = await server.db.insert(roles).values({ name: "perfil-hostil", description: "" }).returning();
    const scimHeaders = { authorization: `Bearer ${SCIM_TOKEN}`, "content-type": "application/scim+json" };
    const scimUser = await fetch(`${server.url}/scim/v2/Users`, {
      method: "POST",
      headers: scimHeaders,
      body: JSON.stringify({ schemas: [USER], userName: "alvo-scim@b1.example.com" }),
    });
    const scimGroup = await fetch(`${server.url}/scim/v2/Groups`, {
      method: "POST",
      headers: scimHeaders,
      body: JSON.stringify({ schemas: [GROUP], displayName: "grupo alvo" }),
    });
    ids = {
      user: target.id,
      role: role!.id as unknown as string,
      scimUser: ((await scimUser.json()) as { id: string }).id,
      scimGroup: ((await scimGroup.json()) as { id: string }).id,
    };
  });
  afterAll(() => server?.stop());

  async function snapshot(): Promise<string> {
    const tables = [users, roles, userRoles, rolePermissions, pages, trailProgress, emailTokens, readingConfirmations];
    const more = [directoryGroups, directoryGroupMembers, twoFactorSecrets];
    const data = [];
    for (const table of [...tables, ...more]) data.push((await server.db.select().from(table)).map((row) => JSON.stringify(row)).sort());
    return createHash("sha256").update(JSON.stringify(data)).digest("hex");
  }

  function urlOf(route: string): string {
    const scim = route.startsWith("/scim/");
    return route
      .replace("/Users/[id]", `/Users/${ids.scimUser}`)
      .replace("/Groups/[id]", `/Groups/${ids.scimGroup}`)
      .replace("/users/[id]", `/users/${ids.user}`)
      .replace("/roles/[id]", `/roles/${ids.role}`)
      .replace("[handle]", scim ? "x" : "x");
  }

  /** Sends one body and holds the answer to the rules: 4xx, the data unchanged, the process alive. */
  async function expectRefused(endpoint: string, body: string, label: string, expected?: number) {
    const [method, route] = endpoint.split(" ") as [string, string];
    const scim = route.startsWith("/scim/");
    const before = await snapshot();
    const headers: Record<string, string> = scim
      ? { authorization: `Bearer ${SCIM_TOKEN}`, "content-type": "application/scim+json" }
      : { "content-type": "application/json", origin: server.url, cookie: `b1_session=${admin.token}` };
    let status: number;
    let text = "";
    try {
      const response = await fetch(server.url + urlOf(route), { method, headers, body });
      status = response.status;
      text = await response.text();
    } catch (error) {
      // A 10 MB upload may see the connection close after the early 413: the process must still answer.
      if (body.length <= 1024 * 1024) throw error;
      status = 413;
    }
    const where = `${endpoint} ${label} → ${status} ${text.slice(0, 200)}`;
    expect(status, where).toBeGreaterThanOrEqual(400);
    expect(status, where).toBeLessThan(500);
    if (expected !== undefined && status !== 401 && status !== 403) expect(status, where).toBe(expected);
    if (text) expect(text, where).not.toMatch(/\bat [\w.<>]+ \(|node:internal|TypeError|RangeError/);
    expect(await snapshot(), where).toBe(before);
    expect((await fetch(`${server.url}/healthz`)).status, `${where}: o processo morreu`).toBe(200);
  }

  const endpoints = writeEndpoints();

  it("every write endpoint under src/pages/api has a template here (a new one is attacked from day one)", () => {
    expect(endpoints.length).toBeGreaterThan(15);
    for (const endpoint of endpoints) expect(Object.keys(TEMPLATES), `sem modelo: ${endpoint}`).toContain(endpoint);
  });

  const withBodies = () => [
    ...endpoints.filter((e) => TEMPLATES[e]).map((e) => [e, TEMPLATES[e]!(ids)] as const),
    ...Object.entries(SCIM_TEMPLATES).map(([e, make]) => [e, make(ids)] as const),
  ];

  it("__proto__, constructor and prototype keys, at the top or nested, however escaped: 400", { timeout: 300_000 }, async () => {
    for (const [endpoint, template] of withBodies())
      for (const body of prototypeKeyBodies(template)) await expectRefused(endpoint, body, body.slice(0, 80), 400);
  });

  it("a body of 64 KiB ± 1 and of 10 MB, declared or not: a 4xx, 413 past the endpoint's limit", { timeout: 300_000 }, async () => {
    for (const [endpoint, template] of withBodies()) {
      const scim = endpoint.includes("/scim/");
      await expectRefused(endpoint, sized(template, 64 * 1024 - 1), "64 KiB - 1");
      await expectRefused(endpoint, sized(template, 64 * 1024 + 1), "64 KiB + 1", scim ? undefined : 413);
      await expectRefused(endpoint, sized(template, 10 * 1024 * 1024), "10 MB", 413);
    }
    // Bodyless endpoints are sent a large body too: never read, never a crash.
    for (const endpoint of endpoints.filter((e) => TEMPLATES[e] === null)) {
      const [method, route] = endpoint.split(" ") as [string, string];
      const response = await fetch(server.url + urlOf(route), {
        method,
        headers: { "content-type": "application/json", origin: server.url, cookie: "b1_session=invalido" },
        body: "x".repeat(10 * 1024 * 1024),
      }).catch(() => null);
      if (response) expect(response.status, endpoint).toBeLessThan(500);
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    }
  });

  it("10,000 levels of nesting, at the top and in a field: 400", { timeout: 300_000 }, async () => {
    const deep = `${"[".repeat(10_000)}${"]".repeat(10_000)}`;
    for (const [endpoint, template] of withBodies()) {
      await expectRefused(endpoint, deep, "10.000 níveis");
      const text = JSON.stringify(template);
      await expectRefused(endpoint, `{"aninhado":${deep},${text.slice(1)}`, "10.000 níveis num campo", 400);
    }
  });

  it("huge numbers in every string field and in the numeric ones: a 4xx", { timeout: 300_000 }, async () => {
    for (const [endpoint, template] of withBodies()) {
      for (const number of HUGE_NUMBERS) {
        for (const { body, where } of eachString(template, () => number))
          await expectRefused(endpoint, JSON.stringify(body), `${where}=${number}`);
        for (const [key, value] of Object.entries(template))
          if (typeof value === "number") await expectRefused(endpoint, JSON.stringify({ ...template, [key]: number }), `${key}=${number}`);
        const text = JSON.stringify(template);
        if (/:\d+[,}]/.test(text)) await expectRefused(endpoint, text.replace(/:(\d+)([,}])/g, ":1e400$2"), "1e400");
      }
    }
  });

  it("control and bidi characters in every string field: a 4xx and nothing stored", { timeout: 300_000 }, async () => {
    for (const [endpoint, template] of withBodies())
      for (const character of CONTROL_AND_BIDI) {
        const mutated = eachString(template, (value, key) =>
          key === "schemas" || key === "op" ? undefined : `${value.slice(0, 3)}${character}${value.slice(3)}`,
        );
        for (const { body, where } of mutated)
          await expectRefused(endpoint, JSON.stringify(body), `${where} com U+${character.codePointAt(0)!.toString(16)}`);
      }
  });

  it(
    "look-alike characters in identifier fields (e-mail, userName, codes, tokens): a 4xx and nothing stored",
    { timeout: 300_000 },
    async () => {
      for (const [endpoint, template] of withBodies())
        for (const character of CONFUSABLES) {
          const mutated = eachString(template, (value, key) => (IDENTIFIER_FIELDS.has(key) ? `${character}${value.slice(1)}` : undefined));
          for (const { body, where } of mutated)
            await expectRefused(endpoint, JSON.stringify(body), `${where} com U+${character.codePointAt(0)!.toString(16)}`);
        }
    },
  );

  it("afterwards Object.prototype of the portal is clean: no planted header on a page, no planted module run by a worker", async () => {
    const page = await fetch(`${server.url}/auth`, { redirect: "manual" });
    expect(page.headers.get("x-polluted")).toBeNull();
    const api = await fetch(`${server.url}/api/admin/users`, { headers: { cookie: `b1_session=${admin.token}` } });
    expect(api.headers.get("x-polluted")).toBeNull();
    const csv = await fetch(`${server.url}/api/audit-logs/export.csv`, { headers: { cookie: `b1_session=${admin.token}` } });
    expect(csv.status).toBe(200);
    await csv.text();
    expect(fs.existsSync(MARKER)).toBe(false);
  });
});
