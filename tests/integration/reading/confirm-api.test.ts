/**
 * /api/leitura and 'Li e entendi' over HTTP against the built server, with a required-reading
 * manifest for /sobre-b1 (everyone) and /comite-ia (lider and admin only).
 */
import fs from "node:fs";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLogs, readingConfirmations } from "../../../db/schema/index";
import { closeDatabase } from "../../../src/lib/server/data/db";
import { startBuiltServer, type RunningServer } from "../../support/server";
import { createTestUser, type TestUser } from "../../support/users";
import { distWithRequiredPages, requiredPage } from "../../support/reading-dist";

const ABOUT = requiredPage("/sobre-b1", "Sobre a B1", 2);
const COMMITTEE = requiredPage("/comite-ia", "Comitê de IA", 1, ["lider", "admin"]);
let server: RunningServer;
let dist: string;
const who: Record<string, TestUser> = {};

function call(user: TestUser | null, method = "GET", body?: unknown, origin: string | null = null) {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (user) headers.cookie = `b1_session=${user.token}`;
  const sentOrigin = origin ?? server.url;
  if (sentOrigin) headers.origin = sentOrigin;
  return fetch(server.url + (method === "GET" ? "/api/leitura" : "/api/leitura/confirmacoes"), {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

const rowsOf = (user: TestUser) => server.db.select().from(readingConfirmations).where(eq(readingConfirmations.userId, user.id));

beforeAll(async () => {
  dist = distWithRequiredPages([ABOUT, COMMITTEE]);
  server = await startBuiltServer({ B1_DIST_DIR: dist });
  for (const role of ["visualizador", "lider", "admin"]) who[role] = await createTestUser(server.db, [role]);
  who.limit = await createTestUser(server.db, ["visualizador"], "limite");
});
afterAll(async () => {
  await server?.stop();
  fs.rmSync(dist, { recursive: true, force: true });
});

describe("reading status", () => {
  it("refuses anonymous reads and confirmations", async () => {
    expect((await call(null)).status).toBe(401);
    expect((await call(null, "POST", { pagina: "/sobre-b1", versao: 2 })).status).toBe(401);
  });

  it("lists only the pages the person may open; a visualizador never sees the lider page's title or summary", async () => {
    const response = await call(who.visualizador!);
    const text = await response.text();
    expect(JSON.parse(text)).toEqual({
      pendentes: 1,
      paginas: [{ pagina: "/sobre-b1", titulo: "Sobre a B1", versao: 2, resumo: ABOUT.summary, confirmada: null, confirmadaEm: null }],
    });
    expect(text).not.toContain("Comitê");
    expect(text).not.toContain(COMMITTEE.summary);
    expect(((await (await call(who.lider!)).json()) as { pendentes: number }).pendentes).toBe(2);
  });

  it("answers a confirmation of a page the person may not open exactly like one of an unknown page, and records nothing", async () => {
    const hidden = await call(who.visualizador!, "POST", { pagina: "/comite-ia", versao: 1 });
    const unknown = await call(who.visualizador!, "POST", { pagina: "/nao-existe", versao: 1 });
    expect(hidden.status).toBe(404);
    expect(await hidden.json()).toEqual(await unknown.json());
    expect(await rowsOf(who.visualizador!)).toEqual([]);
  });
});

describe("'Li e entendi'", () => {
  it("records the version once, with one audit row in the chain, and the count drops at once", async () => {
    const user = who.lider!;
    expect(((await (await call(user)).json()) as { pendentes: number }).pendentes).toBe(2);
    const first = await call(user, "POST", { pagina: "/sobre-b1", versao: 2 });
    expect(first.status).toBe(200);
    const confirmed = (await first.json()) as { versao: number; confirmadaEm: number };
    expect(confirmed.versao).toBe(2);
    const again = await call(user, "POST", { pagina: "/sobre-b1", versao: 2 });
    expect(again.status).toBe(200);
    expect(((await again.json()) as { confirmadaEm: number }).confirmadaEm).toBe(confirmed.confirmadaEm);
    expect(await rowsOf(user)).toEqual([{ userId: user.id, pagePath: "/sobre-b1", version: 2, confirmedAt: confirmed.confirmadaEm }]);
    const audit = await server.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.userId, user.id), eq(auditLogs.actionType, "reading_confirmed")));
    expect(audit).toHaveLength(1);
    expect(JSON.parse(audit[0]!.actionDetails!)).toEqual({ pagina: "/sobre-b1", versao: 2 });
    expect(audit[0]!.hash).toMatch(/^[0-9a-f]{64}$/);
    const status = (await (await call(user)).json()) as { pendentes: number; paginas: { pagina: string; confirmada: number | null }[] };
    expect(status.pendentes).toBe(1);
    expect(status.paginas.find((item) => item.pagina === "/sobre-b1")!.confirmada).toBe(2);
  });

  it("refuses an old version, bad input and a foreign or missing Origin in Portuguese, changing nothing", async () => {
    const user = who.admin!;
    const outdated = await call(user, "POST", { pagina: "/sobre-b1", versao: 1 });
    expect(outdated.status).toBe(409);
    expect(((await outdated.json()) as { error: string }).error).toMatch(/recarregue/);
    for (const body of [{ pagina: "/sobre-b1" }, { pagina: "/sobre-b1", versao: "2" }, { pagina: "/sobre-b1", versao: 2, extra: 1 }]) {
      const response = await call(user, "POST", body);
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: string }).error).toMatch(/[a-zà-ú]/i);
    }
    expect((await call(user, "POST", { pagina: "/sobre-b1", versao: 2 }, "http://evil.example")).status).toBe(403);
    const noOrigin = await fetch(server.url + "/api/leitura/confirmacoes", {
      method: "POST",
      headers: { cookie: `b1_session=${user.token}`, "content-type": "application/json" },
      body: JSON.stringify({ pagina: "/sobre-b1", versao: 2 }),
    });
    expect(noOrigin.status).toBe(403);
    expect(await rowsOf(user)).toEqual([]);
  });

  it("is rate limited per account: the 61st confirmation in 15 minutes gets a 429", async () => {
    const user = who.limit!;
    for (let index = 0; index < 60; index++) expect((await call(user, "POST", { pagina: "/sobre-b1", versao: 2 })).status).toBe(200);
    const refused = await call(user, "POST", { pagina: "/sobre-b1", versao: 2 });
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { error: string }).error).toMatch(/Muitas tentativas/);
  });
});

describe("a new build", () => {
  it("asks again for a page whose version went up, keeping the version confirmed before", async () => {
    const user = who.lider!;
    process.kill(server.pid, "SIGTERM");
    expect(await server.exited).toBe(0);
    await closeDatabase(server.db);
    const next = distWithRequiredPages([requiredPage("/sobre-b1", "Sobre a B1", 3), COMMITTEE], "outro-build");
    try {
      server = await startBuiltServer({ B1_DIST_DIR: next }, { dataDir: server.dataDir });
      const response = await call(user);
      expect(response.status, await response.clone().text()).toBe(200);
      const status = (await response.json()) as {
        pendentes: number;
        paginas: { pagina: string; versao: number; confirmada: number | null }[];
      };
      expect(status.pendentes).toBe(2);
      expect(status.paginas.find((item) => item.pagina === "/sobre-b1")).toMatchObject({ versao: 3, confirmada: 2 });
    } finally {
      fs.rmSync(next, { recursive: true, force: true });
    }
  });
});
