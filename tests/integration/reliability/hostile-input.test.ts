import { createHash } from "node:crypto";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBuiltServer, type RunningServer } from "../../support/server";
import { createTestUser, type TestUser } from "../../support/users";
import { emailTokens, pages, rolePermissions, roles, trailProgress, userRoles, users } from "../../../db/schema/index";

/** Few runs per route: the whole suite has a CI budget; failures print their seed to replay. */
const RUNS = Number(process.env.PROPERTY_RUNS ?? 12);
let server: RunningServer;
let admin: TestUser;

beforeAll(async () => {
  server = await startBuiltServer({ RATE_LIMIT_MULTIPLIER: "1000000" });
  admin = await createTestUser(server.db, ["admin"]);
});
afterAll(() => server?.stop());

/** Everything a refusal must leave untouched (audit rows and session touch times excluded: refusals are audited). */
async function snapshot(): Promise<string> {
  const tables = [users, roles, userRoles, rolePermissions, pages, trailProgress, emailTokens];
  const data = [];
  // Rows sorted in code: the same content gives the same hash on either engine.
  for (const table of tables) data.push((await server.db.select().from(table)).map((row) => JSON.stringify(row)).sort());
  return createHash("sha256").update(JSON.stringify(data)).digest("hex");
}

const HOSTILE = [
  "' OR 1=1 --",
  "'; DROP TABLE users; --",
  "<script>alert(1)</script>",
  '"><img src=x onerror=alert(1)>',
  "\u0000",
  "\u202eadmin",
  "a\u001fadmin",
  "\ud800",
  "💥".repeat(3000),
  "x".repeat(70_000),
  "../../etc/passwd",
  "%00",
  "=cmd|' /C calc'!A0",
  "__proto__",
  "constructor",
];
const hostileString = fc.oneof(
  fc.string({ unit: "grapheme", maxLength: 80 }),
  fc.constantFrom(...HOSTILE),
  fc.string({ unit: "binary", maxLength: 40 }),
);
const anyValue = fc.oneof(
  hostileString,
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(hostileString, { maxLength: 5 }),
  fc.jsonValue({ maxDepth: 3 }),
);
const fields = [
  "email",
  "password",
  "fullName",
  "name",
  "roles",
  "description",
  "pages",
  "completed",
  "answers",
  "projectName",
  "updatedAt",
  "token",
  "next",
  "__proto__",
];
const body = fc.oneof(
  fc.dictionary(fc.constantFrom(...fields), anyValue, { maxKeys: 6 }).map((value) => JSON.stringify(value)),
  fc.jsonValue({ maxDepth: 4 }).map((value) => JSON.stringify(value)),
  hostileString,
);
const query = fc
  .dictionary(fc.constantFrom("action", "result", "user", "from", "to", "cursor", "limit", "token", "q", "x"), hostileString, {
    maxKeys: 5,
  })
  .map((params) => new URLSearchParams(params).toString());

/**
 * The template as JSON once per string in it (values, array items, keys), with a NUL character inside
 * that string; `inKey`: the NUL is in a key (a key no schema knows is dropped, so the body may be fine).
 */
function withNulInEachString(template: unknown): { payload: string; inKey: boolean }[] {
  const variants: { payload: string; inKey: boolean }[] = [];
  const visit = (value: unknown, rebuild: (replacement: unknown) => unknown) => {
    if (typeof value === "string")
      variants.push({ payload: JSON.stringify(rebuild(`${value.slice(0, 2)}\u0000${value.slice(2)}`)), inKey: false });
    else if (Array.isArray(value))
      value.forEach((item, index) => visit(item, (replacement) => rebuild(value.map((old, i) => (i === index ? replacement : old)))));
    else if (value && typeof value === "object")
      for (const [key, item] of Object.entries(value)) {
        const others = Object.entries(value).filter(([other]) => other !== key);
        visit(item, (replacement) => rebuild(Object.fromEntries([...others, [key, replacement]])));
        variants.push({ payload: JSON.stringify(rebuild(Object.fromEntries([...others, [`${key}\u0000`, item]]))), inKey: true });
      }
  };
  visit(template, (replacement) => replacement);
  return variants;
}

const ENGLISH = /\b(Invalid|Expected|Required|received|must|Too (big|small)|Unexpected|Unrecognized|Internal)\b/;

async function expectRefusedCleanly(method: string, path: string, payload: string | undefined, signedIn: boolean) {
  const before = await snapshot();
  const response = await fetch(server.url + path, {
    method,
    redirect: "manual",
    headers: { "content-type": "application/json", origin: server.url, ...(signedIn ? { cookie: `b1_session=${admin.token}` } : {}) },
    body: payload,
  });
  const text = await response.text();
  const label = `${method} ${path} ${payload?.slice(0, 200)} → ${response.status} ${text.slice(0, 300)}`;
  expect(response.status, label).toBeLessThan(500);
  if (response.status >= 400) {
    // The gate answers some unroutable API paths (e.g. a NUL in the id) with the Portuguese 404 page.
    if (response.status === 404 && response.headers.get("content-type")?.startsWith("text/html")) {
      expect(text, label).toContain('<html lang="pt-BR"');
    } else {
      let parsed: { error?: unknown } = {};
      expect(() => (parsed = JSON.parse(text) as { error?: unknown }), label).not.toThrow();
      expect(typeof parsed.error, label).toBe("string");
      expect(parsed.error as string, label).not.toMatch(ENGLISH);
    }
    expect(await snapshot(), label).toBe(before);
  }
}

const BODY_ROUTES: [string, string, boolean][] = [
  ["POST", "/api/auth/sign-in", false],
  ["POST", "/api/auth/sign-up", false],
  ["POST", "/api/auth/reset-request", false],
  ["POST", "/api/auth/resend-link", false],
  ["POST", "/api/auth/update-password", false],
  ["POST", "/api/auth/sign-out", false],
  ["PUT", "/api/trail", true],
  ["POST", "/api/admin/users", true],
  ["POST", "/api/admin/roles", true],
];

describe("hostile input never gets a 5xx, always a Portuguese 4xx, and changes nothing when refused", () => {
  for (const [method, path, signedIn] of BODY_ROUTES) {
    it(`${method} ${path} with random bodies`, { timeout: 120_000 }, async () => {
      await fc.assert(
        fc.asyncProperty(body, (payload) => expectRefusedCleanly(method, path, payload, signedIn)),
        { numRuns: RUNS },
      );
    });
  }

  it("PUT and DELETE /api/admin/users/:id and /api/admin/roles/:id with random ids and bodies", { timeout: 120_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("users", "roles"),
        fc.constantFrom("PUT", "DELETE"),
        hostileString,
        body,
        async (kind, method, id, payload) =>
          await expectRefusedCleanly(
            method,
            `/api/admin/${kind}/${encodeURIComponent(id.toWellFormed()) || "x"}`,
            method === "PUT" ? payload : undefined,
            true,
          ),
      ),
      { numRuns: RUNS * 2 },
    );
  });

  it("a NUL byte in an API query string is a Portuguese 400 (PostgreSQL refuses it in text: it was a 500)", async () => {
    const cases: [string, string[]][] = [
      ["/api/audit-logs", ["action=%00", "user=%00", "action=login%00x", "user=a%00b"]],
      ["/api/audit-logs/export.csv", ["action=%00", "user=a%00b"]],
      ["/api/admin/users", ["q=%00", "q=a%00b"]],
      ["/api/leitura/relatorio", ["busca=%00", "apos=a%00b"]],
      ["/api/leitura/relatorio/export.csv", ["busca=a%00b"]],
    ];
    for (const [path, searches] of cases)
      for (const search of searches) {
        await expectRefusedCleanly("GET", `${path}?${search}`, undefined, true);
        const response = await fetch(`${server.url}${path}?${search}`, { headers: { cookie: `b1_session=${admin.token}` } });
        expect(response.status, `${path}?${search}`).toBe(400);
        expect(((await response.json()) as { error: string }).error).toMatch(/caractere/i);
      }
  });

  it("a NUL character inside any string of a JSON body is a Portuguese 400 and changes nothing (PostgreSQL refuses it in text: it was a 500)", async () => {
    const user = await createTestUser(server.db, ["visualizador"], "nul-alvo");
    const [role] = await server.db.insert(roles).values({ name: "perfil-nul", description: "" }).returning();
    /** A valid body per endpoint; each string in it (values, array items and keys) gets a NUL in turn. */
    const templates: [string, string, Record<string, unknown>][] = [
      ["POST", "/api/auth/sign-in", { email: "pessoa@b1.example.com", password: "senha-bem-longa-1" }],
      ["POST", "/api/auth/sign-up", { email: "nova@b1.example.com", password: "senha-bem-longa-1", fullName: "Nova Pessoa" }],
      ["POST", "/api/auth/reset-request", { email: "pessoa@b1.example.com" }],
      ["POST", "/api/auth/resend-link", { email: "pessoa@b1.example.com" }],
      ["POST", "/api/auth/update-password", { token: "abcdef", password: "senha-bem-longa-1" }],
      ["POST", "/api/auth/confirm", { token: "abcdef" }],
      ["POST", "/api/auth/two-factor", { code: "123456" }],
      ["PUT", "/api/trail", { completed: ["ideacao"], answers: { ideacao: { "0": "resposta" } }, projectName: "Projeto", updatedAt: 1 }],
      [
        "POST",
        "/api/admin/users",
        { email: "outra@b1.example.com", fullName: "Outra Pessoa", password: "senha-bem-longa-1", roles: ["visualizador"] },
      ],
      ["PUT", `/api/admin/users/${user.id}`, { fullName: "Nome Novo", roles: ["visualizador"] }],
      ["POST", "/api/admin/roles", { name: "perfil novo", description: "texto", pages: ["/valores"] }],
      ["PUT", `/api/admin/roles/${role!.id}`, { name: "perfil novo", description: "texto", pages: ["/valores"] }],
      ["POST", "/api/leitura/confirmacoes", { pagina: "/valores", versao: 1 }],
    ];
    for (const [method, path, template] of templates)
      for (const { payload, inKey } of withNulInEachString(template)) {
        if (inKey) {
          await expectRefusedCleanly(method, path, payload, true);
          continue;
        }
        const before = await snapshot();
        const response = await fetch(server.url + path, {
          method,
          headers: { "content-type": "application/json", origin: server.url, cookie: `b1_session=${admin.token}` },
          body: payload,
        });
        const label = `${method} ${path} ${payload}`;
        // The field's own message where it has one (e.g. "E-mail inválido"), else the general one.
        expect(response.status, label).toBe(400);
        expect(((await response.json()) as { error: string }).error, label).not.toMatch(ENGLISH);
        expect(await snapshot(), label).toBe(before);
      }
  });

  it("GET endpoints with random query strings", { timeout: 120_000 }, async () => {
    const paths = [
      "/api/audit-logs",
      "/api/audit-logs/export.csv",
      "/api/admin/users",
      "/api/admin/roles",
      "/api/admin/me",
      "/api/trail",
      "/api/auth/confirm",
    ];
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...paths),
        query,
        async (path, search) => await expectRefusedCleanly("GET", `${path}?${search}`, undefined, path !== "/api/auth/confirm"),
      ),
      { numRuns: RUNS * 3 },
    );
  });
});
