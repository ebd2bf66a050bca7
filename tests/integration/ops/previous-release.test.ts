/**
 * Expand/contract (issue 44 item 4): during a rolling upgrade the previous release's gate runs
 * beside the new one on the schema the new one migrated. This builds the commit named by
 * deploy/previous-release (tests/support/previous-release.ts), migrates a fresh database with the
 * CURRENT migrations (all of them) and the current seed, starts the PREVIOUS gate on it and runs the
 * smoke suite over HTTP: readiness, sign-in, a content page, search files, required reading, the
 * trail, the admin panel and a role change, the audit log, SCIM, sign-out; then the current gate
 * beside it reads what the previous one wrote. Both engines (and through PgBouncer in its pass).
 * A migration that drops or renames what the previous gate reads fails here.
 */
import fs from "node:fs";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readingConfirmations, roles, trailProgress, userRoles } from "../../../db/schema/index";
import { previousReleaseBuild, type PreviousBuild } from "../../support/previous-release";
import { SCIM_TOKEN } from "../../support/scim";
import { startBuiltServer, type RunningServer } from "../../support/server";
import { createTestUser, type TestUser } from "../../support/users";

/** /faq as required reading in the previous build (content/leitura-obrigatoria.yaml, the editors' documented format). */
function declareRequiredReading(dir: string): void {
  fs.writeFileSync(
    path.join(dir, "content", "leitura-obrigatoria.yaml"),
    "- id: faq-compatibilidade\n  pagina: /faq\n  versao: 1\n  resumo: Versão do teste de compatibilidade entre versões.\n",
  );
}

const ENV = { SCIM_TOKEN, RATE_LIMIT_MULTIPLIER: "100" };
const PASSWORD = "Senha@Teste1";
let previous: PreviousBuild;
let server: RunningServer;
let reader: TestUser;
let admin: TestUser;
let target: TestUser;
/** Session cookies the PREVIOUS gate issued at sign-in. */
const cookies: Record<string, string> = {};

async function call(base: string, method: string, address: string, cookie?: string, body?: unknown): Promise<Response> {
  const headers: Record<string, string> = { origin: base, "user-agent": "TesteVersaoAnterior/1.0" };
  if (cookie) headers.cookie = cookie;
  if (body !== undefined) headers["content-type"] = "application/json";
  return fetch(base + address, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), redirect: "manual" });
}

async function signIn(user: TestUser): Promise<string> {
  const response = await call(server.url, "POST", "/api/auth/sign-in", undefined, { email: user.email, password: PASSWORD });
  expect(response.status, await response.clone().text()).toBe(200);
  const cookie = /b1_session=[^;]+/.exec(response.headers.get("set-cookie") ?? "")?.[0];
  expect(cookie).toBeTruthy();
  return cookie!;
}

/** Error and fatal lines of a gate's log (pino levels 50 and 60). */
const errorLines = (log: string) => log.split("\n").filter((line) => /"level":\s*(50|60)\b/.test(line));

beforeAll(async () => {
  previous = previousReleaseBuild(declareRequiredReading);
  console.log(
    `[versão anterior] ${previous.commit.slice(0, 12)} ${previous.built ? "construída" : "reaproveitada"} em ${previous.dir} (node_modules ${previous.modules === "shared" ? "deste checkout" : "instalado lá"})`,
  );
  // startBuiltServer migrates and seeds the fresh database with THIS checkout's code before the previous gate starts.
  server = await startBuiltServer(ENV, { cwd: previous.dir, startTimeoutMs: 30_000 });
  reader = await createTestUser(server.db, ["visualizador"], "anterior-leitor");
  admin = await createTestUser(server.db, ["admin"], "anterior-admin");
  target = await createTestUser(server.db, ["visualizador"], "anterior-alvo");
}, 900_000);
afterAll(async () => {
  await server?.stop();
});

describe("the previous release's gate on the current schema", () => {
  it("starts and is ready: the newer migrations applied are no reason to refuse", async () => {
    const ready = await call(server.url, "GET", "/readyz");
    expect(await ready.text()).toBe("pronto\n");
    expect(ready.status).toBe(200);
  });

  it("signs in, serves a content page and the search files", async () => {
    cookies.reader = await signIn(reader);
    const page = await call(server.url, "GET", "/faq", cookies.reader);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Perguntas Frequentes");
    const groups = await call(server.url, "GET", "/pagefind/grupos.json", cookies.reader);
    expect(groups.status).toBe(200);
    const entry = await call(server.url, "GET", "/pagefind/pagefind-entry.json", cookies.reader);
    expect(entry.status).toBe(200);
    expect(Object.keys((await entry.json()) as object)).toContain("languages");
  });

  it("records a required-reading confirmation and a trail save", async () => {
    const status = (await (await call(server.url, "GET", "/api/leitura", cookies.reader)).json()) as { pendentes: number };
    expect(status.pendentes).toBe(1);
    const confirmed = await call(server.url, "POST", "/api/leitura/confirmacoes", cookies.reader, { pagina: "/faq", versao: 1 });
    expect(confirmed.status, await confirmed.clone().text()).toBe(200);
    const rows = await server.db
      .select()
      .from(readingConfirmations)
      .where(and(eq(readingConfirmations.userId, reader.id), eq(readingConfirmations.pagePath, "/faq")));
    expect(rows.map((row) => row.version)).toEqual([1]);

    const trail = { completed: [], answers: {}, projectName: "projeto da versão anterior", updatedAt: Date.now() };
    const saved = await call(server.url, "PUT", "/api/trail", cookies.reader, trail);
    expect(saved.status, await saved.clone().text()).toBe(200);
    const stored = await server.db.select().from(trailProgress).where(eq(trailProgress.userId, reader.id));
    expect(stored[0]?.data).toContain("projeto da versão anterior");
  });

  it("opens the admin panel, finds a user and changes their roles", async () => {
    cookies.admin = await signIn(admin);
    expect((await call(server.url, "GET", "/admin-panel", cookies.admin)).status).toBe(200);
    const list = await call(server.url, "GET", `/api/admin/users?q=${encodeURIComponent("anterior-alvo")}`, cookies.admin);
    expect(list.status).toBe(200);
    expect(await list.text()).toContain(target.email);
    const edited = await call(server.url, "PUT", `/api/admin/users/${target.id}`, cookies.admin, {
      fullName: "Alvo da Versão Anterior",
      roles: ["lider"],
    });
    expect(edited.status, await edited.clone().text()).toBe(200);
    const assigned = await server.db
      .select({ name: roles.name })
      .from(userRoles)
      .innerJoin(roles, eq(roles.id, userRoles.roleId))
      .where(eq(userRoles.userId, target.id));
    expect(assigned.map((row) => row.name)).toEqual(["lider"]);
  });

  it("shows the audit log with what it just wrote", async () => {
    const response = await call(server.url, "GET", "/api/audit-logs", cookies.admin);
    expect(response.status).toBe(200);
    const { rows } = (await response.json()) as { rows: { actionType: string }[] };
    const actions = rows.map((row) => row.actionType);
    expect(actions).toEqual(expect.arrayContaining(["admin_user_updated", "user_login_success"]));
  });

  it("answers the directory (SCIM GET)", async () => {
    const response = await fetch(`${server.url}/scim/v2/Users?count=5`, {
      headers: { authorization: `Bearer ${SCIM_TOKEN}`, accept: "application/scim+json" },
    });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { totalResults: number }).totalResults).toBeGreaterThanOrEqual(0);
  });

  it("the current gate beside it reads what the previous one wrote, and the previous one signs out", async () => {
    const current = await startBuiltServer(ENV, { dataDir: server.dataDir });
    try {
      // The session the previous gate issued, its trail save and its role change, through the current gate.
      const trail = await call(current.url, "GET", "/api/trail", cookies.reader);
      expect(trail.status).toBe(200);
      expect(JSON.stringify(await trail.json())).toContain("projeto da versão anterior");
      const list = await call(current.url, "GET", `/api/admin/users?q=${encodeURIComponent("anterior-alvo")}`, cookies.admin);
      expect(list.status).toBe(200);
      expect(await list.text()).toContain("Alvo da Versão Anterior");
      expect(await (await call(current.url, "GET", "/api/audit-logs", cookies.admin)).text()).toContain("admin_user_updated");
    } finally {
      await current.stop({ keepData: true });
    }
    const out = await call(server.url, "POST", "/api/auth/sign-out", cookies.reader);
    expect(out.status).toBe(303);
    expect((await call(server.url, "GET", "/api/trail", cookies.reader)).status).toBe(401);
    expect(errorLines(server.output())).toEqual([]);
  });
});
