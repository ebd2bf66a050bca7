/**
 * Search beacons and the Insights report over HTTP against the built server: k-anonymity (a query
 * searched by 2 people is absent, by 3 present), bad beacons refused with nothing stored, the rate per
 * session, the report's access (admin by default), its tables and CSV (formula-safe, `,` and `;`).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insightsQueries, insightsQueryPeople, insightsSearches } from "../../../db/schema/index";
import type { InsightsReport } from "../../../src/lib/insights/report";
import { storedQuery } from "../../support/insights";
import { startBuiltServer, type RunningServer } from "../../support/server";
import { createTestUser, type TestUser } from "../../support/users";

let server: RunningServer;
const people: TestUser[] = [];
let admin: TestUser;
let spammer: TestUser;

function beacon(user: TestUser | null, body: unknown, origin: string | null = null, raw?: string) {
  const headers: Record<string, string> = { "content-type": "application/json", origin: origin ?? server.url };
  if (user) headers.cookie = `b1_session=${user.token}`;
  return fetch(`${server.url}/api/busca`, { method: "POST", headers, body: raw ?? JSON.stringify(body) });
}

async function report(user: TestUser, query = ""): Promise<{ status: number; body: InsightsReport & { error?: string } }> {
  const response = await fetch(`${server.url}/api/insights${query}`, { headers: { cookie: `b1_session=${user.token}` } });
  return { status: response.status, body: (await response.json()) as InsightsReport & { error?: string } };
}

/** The body as sent, byte order mark included (Response.text() drops it). */
const csvText = async (response: Response) => new TextDecoder("utf-8", { ignoreBOM: true }).decode(await response.arrayBuffer());

beforeAll(async () => {
  server = await startBuiltServer();
  for (let index = 0; index < 3; index++) people.push(await createTestUser(server.db, ["visualizador"], `busca-${index}`));
  admin = await createTestUser(server.db, ["admin"], "insights-admin");
  spammer = await createTestUser(server.db, ["visualizador"], "rajada");
});
afterAll(async () => server?.stop());

describe("search beacons and k-anonymity", () => {
  it("shows a query searched by 3 people and never one searched by 2, and keeps no hash once shown", async () => {
    const [a, b, c] = people as [TestUser, TestUser, TestUser];
    for (const person of [a, b])
      expect((await beacon(person, { consulta: "Salário  Gerente", resultados: 0, aberto: null })).status).toBe(204);
    expect((await beacon(a, { consulta: "salário gerente", resultados: 0, aberto: null })).status).toBe(204);
    expect((await beacon(a, { consulta: "=cmd|' /C calc'!A0", resultados: 2, aberto: null })).status).toBe(204);
    expect((await beacon(b, { consulta: "=CMD|' /C calc'!A0", resultados: 2, aberto: null })).status).toBe(204);
    expect((await beacon(a, { consulta: "Canvas", resultados: 4, aberto: 2 })).status).toBe(204);
    expect((await beacon(b, { consulta: "canvas", resultados: 0, aberto: null })).status).toBe(204);
    expect((await beacon(c, { consulta: "=cmd|' /c calc'!a0", resultados: 2, aberto: null })).status).toBe(204);
    expect((await beacon(c, { consulta: "CANVAS", resultados: 4, aberto: null })).status).toBe(204);
    // Written at the instance's next flush (every 5 s).
    await expect.poll(async () => (await report(admin)).body.buscas?.length ?? 0, { timeout: 15_000, interval: 250 }).toBe(2);
    const { body } = await report(admin);
    expect(body.buscas).toEqual([
      { consulta: "=cmd|' /c calc'!a0", buscas: 3, semResultado: 0, aberturas: 0 },
      { consulta: "canvas", buscas: 3, semResultado: 1, aberturas: 1 },
    ]);
    expect(JSON.stringify(body)).not.toContain("salário");
    expect(body.semResultado.map((row) => row.consulta)).toEqual(["canvas"]);
    expect(body.semAbertura.map((row) => row.consulta)).toEqual(["=cmd|' /c calc'!a0"]);
    // The 2-person query keeps its two hashes (not names); the shown ones keep none.
    const hashes = await server.db.select().from(insightsQueryPeople);
    const salario = await storedQuery(server.db, "salário gerente");
    expect(hashes.map((row) => row.query).sort()).toEqual([salario, salario]);
    expect(JSON.stringify(hashes)).not.toContain(a.id);
    const states = await server.db.select().from(insightsQueries);
    expect(Object.fromEntries(states.map((row) => [row.query, [row.people, row.text]]))).toEqual({
      [salario]: [2, null],
      [await storedQuery(server.db, "canvas")]: [3, "canvas"],
      [await storedQuery(server.db, "=cmd|' /c calc'!a0")]: [3, "=cmd|' /c calc'!a0"],
    });
    // The 2-person query is nowhere in clear: no row of any table holds its text (issue 62).
    expect(JSON.stringify([hashes, states, await server.db.select().from(insightsSearches)])).not.toContain("salário");

    // The CSV of the same table: formula-safe, both separators.
    const csv = await fetch(`${server.url}/api/insights/export.csv?tabela=buscas&sep=%3B`, {
      headers: { cookie: `b1_session=${admin.token}` },
    });
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toContain("text/csv");
    expect(await csvText(csv)).toBe(
      "\uFEFFBusca;Buscas;Sem resultado;Resultados abertos\r\n\"'=cmd|' /c calc'!a0\";3;0;0\r\ncanvas;3;1;1\r\n",
    );
    const comma = await fetch(`${server.url}/api/insights/export.csv?tabela=sem-resultado`, {
      headers: { cookie: `b1_session=${admin.token}` },
    });
    expect(await csvText(comma)).toBe("\uFEFFBusca,Buscas,Sem resultado,Resultados abertos\r\ncanvas,3,1,1\r\n");
  });

  it("refuses bad beacons with a Portuguese 4xx and stores nothing", async () => {
    const person = people[0]!;
    const before = await server.db.select().from(insightsSearches);
    const cases: [string, Response][] = [
      ["empty", await beacon(person, { consulta: "   ", resultados: 0, aberto: null })],
      ["huge", await beacon(person, { consulta: "a".repeat(101), resultados: 0, aberto: null })],
      ["control", await beacon(person, { consulta: "abc\u0007", resultados: 0, aberto: null })],
      ["bidi", await beacon(person, { consulta: "abc\u202Edef", resultados: 0, aberto: null })],
      ["zero width", await beacon(person, { consulta: "a\u200Bb", resultados: 0, aberto: null })],
      ["NUL", await beacon(person, { consulta: "a\u0000b", resultados: 0, aberto: null })],
      ["negative", await beacon(person, { consulta: "abc", resultados: -1, aberto: null })],
      ["huge number", await beacon(person, { consulta: "abc", resultados: 1e308, aberto: null })],
      ["position past results", await beacon(person, { consulta: "abc", resultados: 2, aberto: 3 })],
      ["unknown field", await beacon(person, { consulta: "abc", resultados: 1, aberto: null, pagina: "/faq" })],
      ["__proto__", await beacon(person, null, null, '{"consulta":"abc","resultados":1,"aberto":null,"__proto__":{"x":1}}')],
      ["deep", await beacon(person, null, null, `{"consulta":${"[".repeat(3000)}${"]".repeat(3000)}}`)],
      ["10 MB", await beacon(person, null, null, "a".repeat(10 * 1024 * 1024))],
    ];
    for (const [name, answer] of cases) {
      expect(answer.status, name).toBeGreaterThanOrEqual(400);
      expect(answer.status, name).toBeLessThan(500);
      expect(((await answer.json()) as { error: string }).error, name).toMatch(/[a-zç]/i);
    }
    expect((await beacon(person, { consulta: "abc", resultados: 1, aberto: null }, "https://evil.example")).status).toBe(403);
    expect((await beacon(null, { consulta: "abc", resultados: 1, aberto: null })).status).toBe(401);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(await server.db.select().from(insightsSearches)).toEqual(before);
  });

  it("limits beacons per session, 50 in parallel included", async () => {
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, index) => beacon(spammer, { consulta: `rajada ${index}`, resultados: 1, aberto: null })),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 204)).toHaveLength(30);
    expect(statuses.filter((status) => status === 429)).toHaveLength(20);
  });
});

describe("the Insights page's access and filters", () => {
  it("is the admin's by default: others are refused; a bad filter is a 400", async () => {
    expect((await report(people[0]!)).status).toBe(403);
    const page = await fetch(`${server.url}/insights`, { redirect: "manual", headers: { cookie: `b1_session=${people[0]!.token}` } });
    expect(page.status).toBe(302);
    expect(page.headers.get("location")).toContain("/acesso-negado");
    expect((await report(admin, "?periodo=12")).status).toBe(400);
    expect((await report(admin, "?perfil=__proto__")).status).toBe(400);
    expect((await report(admin, "?pagina=/nao-existe")).body.error).toBe("Página inválida.");
    const ok = await report(admin, "?periodo=7&perfil=lider&pagina=/faq");
    expect(ok.status).toBe(200);
    expect(ok.body.filtro).toEqual({ periodo: "7", perfil: "lider", pagina: "/faq" });
    expect(ok.body.serie).toHaveLength(7);
    const bad = await fetch(`${server.url}/api/insights/export.csv?tabela=__proto__`, { headers: { cookie: `b1_session=${admin.token}` } });
    expect(bad.status).toBe(400);
  });
});
