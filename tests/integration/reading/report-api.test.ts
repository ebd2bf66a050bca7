/**
 * The required-reading report over HTTP against the built server: who may open it, what each
 * viewer learns (never a page they may not open), the totals, every filter, keyset paging, the
 * formula-safe CSV and one person's pending list. Pages: /sobre-b1 (everyone, version 2) and
 * /comite-ia (lider and admin, version 1).
 */
import fs from "node:fs";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { users } from "../../../db/schema/index";
import type { PersonReading, ReadingReport } from "../../../src/lib/reading/report";
import { assignRoleByEmail, createCustomRole } from "../../../src/lib/server/admin/roles";
import { createUser } from "../../../src/lib/server/auth/user";
import { createSession } from "../../../src/lib/server/sessions/session";
import { startBuiltServer, type RunningServer } from "../../support/server";
import { createTestUser, type TestUser } from "../../support/users";
import { distWithRequiredPages, requiredPage } from "../../support/reading-dist";

const ABOUT = requiredPage("/sobre-b1", "Sobre a B1", 2);
const COMMITTEE = requiredPage("/comite-ia", "Comitê de IA", 1, ["lider", "admin"]);
const CROWD = 53;
let server: RunningServer;
let firstAskedAt = 0;
let firstCountedAt = 0;
let dist: string;
const who: Record<string, TestUser> = {};
const crowd: TestUser[] = [];

function get(user: TestUser | null, path: string) {
  return fetch(server.url + path, { headers: user ? { cookie: `b1_session=${user.token}` } : {} });
}
async function report(user: TestUser, query = ""): Promise<ReadingReport> {
  const response = await get(user, `/api/leitura/relatorio${query ? `?${query}` : ""}`);
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as ReadingReport;
}
function confirm(user: TestUser, pagina: string, versao: number) {
  return fetch(server.url + "/api/leitura/confirmacoes", {
    method: "POST",
    headers: { cookie: `b1_session=${user.token}`, origin: server.url, "content-type": "application/json" },
    body: JSON.stringify({ pagina, versao }),
  });
}
/** The tallies are counted again in the background after a confirmation: wait until they show `confirmed`. */
async function talliesShow(user: TestUser, pagina: string, confirmed: number): Promise<ReadingReport> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const seen = await report(user, `pagina=${encodeURIComponent(pagina)}`);
    if (seen.selecionada?.confirmadas === confirmed) return seen;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`os totais de ${pagina} não chegaram a ${confirmed}`);
}

beforeAll(async () => {
  dist = distWithRequiredPages([ABOUT, COMMITTEE]);
  server = await startBuiltServer({ B1_DIST_DIR: dist });
  for (const role of ["admin", "lider", "visualizador", "security"]) who[role] = await createTestUser(server.db, [role], `rel-${role}`);
  // A custom role that opens the report but not the committee page.
  const created = await createCustomRole(server.db, { name: "auditoria-leitura", description: "", pagePaths: ["/leitura/relatorio"] });
  expect(created.ok).toBe(true);
  who.auditor = await createTestUser(server.db, ["visualizador"], "rel-auditor");
  expect(await assignRoleByEmail(server.db, who.auditor.email, "auditoria-leitura")).toBe(true);
  // A name a spreadsheet would run as a formula, and a deactivated account (never listed).
  const formula = await createUser(server.db, {
    email: "rel-formula@b1.example.com",
    fullName: '=HYPERLINK("http://mal.example","x")',
    password: "Senha@Teste1",
    roleNames: ["visualizador"],
    confirmed: true,
  });
  if (!formula.ok) throw new Error("usuário de teste");
  who.formula = {
    id: formula.userId,
    email: "rel-formula@b1.example.com",
    password: "",
    fullName: "",
    token: (await createSession(server.db, formula.userId)).token,
  };
  const gone = await createTestUser(server.db, ["visualizador"], "rel-desativado");
  await server.db.update(users).set({ deactivatedAt: Date.now() }).where(eq(users.id, gone.id));
  who.gone = gone;
  for (let index = 0; index < CROWD; index++)
    crowd.push(await createTestUser(server.db, ["visualizador"], `rel-multidao-${String(index).padStart(2, "0")}`));
  // The totals are counted when the server starts and kept up to five minutes (or until a
  // confirmation): the server that counts them starts once the people above exist.
  await server.stop({ keepData: true });
  server = await startBuiltServer({ B1_DIST_DIR: dist }, { dataDir: server.dataDir });
  // The first request comes a little later: its totals were counted before it arrived.
  await new Promise((resolve) => setTimeout(resolve, 300));
  firstAskedAt = Date.now();
  firstCountedAt = (await report(who.admin!)).selecionada!.calculadoEm;
}, 120_000);
afterAll(async () => {
  await server?.stop();
  fs.rmSync(dist, { recursive: true, force: true });
});

describe("who may open the report", () => {
  it("answers anonymous 401 and a visualizador or security 403, on the JSON, the CSV and a person's list", async () => {
    for (const path of ["/api/leitura/relatorio", "/api/leitura/relatorio/export.csv", `/api/leitura/relatorio/pessoas/${who.admin!.id}`]) {
      expect((await get(null, path)).status).toBe(401);
      expect((await get(who.visualizador!, path)).status).toBe(403);
      expect((await get(who.security!, path)).status).toBe(403);
    }
  });

  it("lets admins and líderes in, and a custom role granted the page", async () => {
    for (const viewer of [who.admin!, who.lider!, who.auditor!]) expect((await get(viewer, "/api/leitura/relatorio")).status).toBe(200);
  });
});

describe("what each viewer sees", () => {
  it("counts everyone who may open each page (deactivated accounts left out), by role, with the percentage", async () => {
    const seen = await report(who.admin!);
    expect(seen.paginas.map((tally) => [tally.pagina, tally.versao])).toEqual([
      ["/sobre-b1", 2],
      ["/comite-ia", 1],
    ]);
    // admin, lider, visualizador, security, auditor, formula and the crowd; not the deactivated one.
    const everyone = 6 + CROWD;
    expect(seen.selecionada).toMatchObject({ pagina: "/sobre-b1", publico: everyone, confirmadas: 0, pendentes: everyone, percentual: 0 });
    const committee = seen.paginas.find((tally) => tally.pagina === "/comite-ia")!;
    expect(committee).toMatchObject({ publico: 2, confirmadas: 0 });
    expect(committee.perfis.map((role) => [role.perfil, role.publico])).toEqual([
      ["admin", 1],
      ["lider", 1],
    ]);
    expect(JSON.stringify(seen)).not.toContain(who.gone!.email);
  });

  it("answers from totals counted when the server started, before anyone asked", () => {
    expect(firstCountedAt).toBeGreaterThan(0);
    expect(firstCountedAt).toBeLessThan(firstAskedAt);
  });

  it("never shows a viewer a page they may not open: not in the totals, not as a filter, not in a person's list", async () => {
    const seen = await report(who.auditor!);
    expect(seen.paginas.map((tally) => tally.pagina)).toEqual(["/sobre-b1"]);
    const asJson = JSON.stringify(seen);
    expect(asJson).not.toContain("Comitê");
    const hidden = await get(who.auditor!, "/api/leitura/relatorio?pagina=%2Fcomite-ia");
    const unknown = await get(who.auditor!, "/api/leitura/relatorio?pagina=%2Fnao-existe");
    expect(hidden.status).toBe(400);
    expect(await hidden.json()).toEqual(await unknown.json());
    expect((await get(who.auditor!, "/api/leitura/relatorio/export.csv?pagina=%2Fcomite-ia")).status).toBe(400);
    const lider = (await (await get(who.auditor!, `/api/leitura/relatorio/pessoas/${who.lider!.id}`)).json()) as PersonReading;
    expect(lider.pendentes.map((item) => item.pagina)).toEqual(["/sobre-b1"]);
    expect(JSON.stringify(lider)).not.toContain("Comitê");
  });

  it("lists, for the admin, a líder's pending pages of both", async () => {
    const response = await get(who.admin!, `/api/leitura/relatorio/pessoas/${who.lider!.id}`);
    const lider = (await response.json()) as PersonReading;
    expect(lider).toMatchObject({ email: who.lider!.email, confirmadas: 0 });
    expect(lider.pendentes.map((item) => [item.pagina, item.versao, item.confirmada])).toEqual([
      ["/sobre-b1", 2, null],
      ["/comite-ia", 1, null],
    ]);
    expect((await get(who.admin!, `/api/leitura/relatorio/pessoas/${who.gone!.id}`)).status).toBe(404);
    expect((await get(who.admin!, "/api/leitura/relatorio/pessoas/nao-existe")).status).toBe(404);
  });
});

describe("confirmations, filters and paging", () => {
  it("counts a confirmation and filters by status, role, version and name or e-mail", async () => {
    expect((await confirm(who.lider!, "/sobre-b1", 2)).status).toBe(200);
    expect((await confirm(crowd[0]!, "/sobre-b1", 2)).status).toBe(200);
    const seen = await talliesShow(who.admin!, "/sobre-b1", 2);
    expect(seen.selecionada!.pendentes).toBe(seen.selecionada!.publico - 2);
    expect(seen.selecionada!.perfis.find((role) => role.perfil === "lider")).toMatchObject({ publico: 1, confirmadas: 1 });

    const confirmed = await report(who.admin!, "pagina=%2Fsobre-b1&situacao=confirmada");
    expect(confirmed.pessoas.map((person) => person.email).sort()).toEqual([who.lider!.email, crowd[0]!.email].sort());
    expect(confirmed.pessoas.every((person) => !person.pendente && person.confirmada === 2 && person.confirmadaEm! > 0)).toBe(true);

    const lideres = await report(who.admin!, "pagina=%2Fsobre-b1&perfil=lider");
    expect(lideres.pessoas.map((person) => person.email)).toEqual([who.lider!.email]);

    const pendingLeaders = await report(who.admin!, "pagina=%2Fsobre-b1&perfil=lider&situacao=pendente");
    expect(pendingLeaders.pessoas).toEqual([]);

    const searched = await report(who.admin!, `pagina=%2Fsobre-b1&busca=${encodeURIComponent("multidao-07")}`);
    expect(searched.pessoas.map((person) => person.email)).toEqual([crowd[7]!.email]);

    // Version 1 of /sobre-b1: whoever confirmed version 2 counts as having read version 1 too.
    const older = await report(who.admin!, "pagina=%2Fsobre-b1&versao=1&situacao=confirmada");
    expect(older.selecionada).toMatchObject({ versao: 1, versaoAtual: 2, confirmadas: 2 });
    expect(older.pessoas).toHaveLength(2);
  });

  it("pages the list by e-mail with a keyset cursor, every person once", async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: ReadingReport = await report(who.admin!, `pagina=%2Fsobre-b1${cursor ? `&apos=${encodeURIComponent(cursor)}` : ""}`);
      expect(page.pessoas.length).toBeLessThanOrEqual(50);
      seen.push(...page.pessoas.map((person) => person.email));
      cursor = page.proximo;
      pages += 1;
    } while (cursor);
    expect(pages).toBe(2);
    expect(seen).toEqual([...seen].sort());
    expect(new Set(seen).size).toBe(6 + CROWD);
  });

  it("refuses bad filters in Portuguese", async () => {
    for (const query of ["versao=abc", "situacao=lida", "perfil=inexistente", "versao=9", "outro=1"]) {
      const response = await get(who.admin!, `/api/leitura/relatorio?${query}`);
      expect(response.status, query).toBe(400);
      expect(((await response.json()) as { error: string }).error, query).toMatch(/[a-zà-ú]{3}/i);
    }
    expect((await get(who.admin!, "/api/leitura/relatorio/export.csv?sep=x")).status).toBe(400);
  });
});

describe("CSV", () => {
  it("has every matching person (not one page), and a name that looks like a formula stays text", async () => {
    const response = await get(who.admin!, "/api/leitura/relatorio/export.csv?pagina=%2Fsobre-b1");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("content-disposition")).toMatch(/^attachment; filename="leitura-sobre-b1-v2-\d{4}-\d{2}-\d{2}\.csv"$/);
    // The BOM (kept: fetch's text() would drop it) makes spreadsheets read the accents as UTF-8.
    const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(await response.arrayBuffer());
    const lines = text.split("\r\n").filter(Boolean);
    expect(lines[0]).toBe("\uFEFFPágina,Título,Versão,Nome,E-mail,Perfis,Situação,Versão confirmada,Confirmada em");
    expect(lines).toHaveLength(1 + 6 + CROWD);
    expect(text).toContain(`"'=HYPERLINK(""http://mal.example"",""x"")",rel-formula@b1.example.com,Visualizador,Pendente,,`);
    expect(lines.find((line) => line.includes(who.lider!.email))).toMatch(/,Líder,Confirmada,2,\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2}$/);
    const pending = await (await get(who.admin!, "/api/leitura/relatorio/export.csv?pagina=%2Fsobre-b1&situacao=pendente&sep=%3B")).text();
    expect(pending.split("\r\n").filter(Boolean)).toHaveLength(1 + 6 + CROWD - 2);
    expect(pending.split("\r\n")[0]).toContain("Página;Título;Versão");
  });
});
