/** /api/novidades over HTTP against the built server, with a list of changes that includes a lider-only page. */
import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { NewsItem } from "../../../src/lib/reading/news";
import { startBuiltServer, type RunningServer } from "../../support/server";
import { createTestUser, type TestUser } from "../../support/users";
import { distWithRequiredPages } from "../../support/reading-dist";

const day = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString();
/** 45 changes, newest first; every third one is on /comite-ia (lider and admin only). */
const NEWS: NewsItem[] = Array.from({ length: 45 }, (_, index) => {
  const secret = index % 3 === 1;
  const pagina = secret ? "/comite-ia" : "/faq";
  return {
    id: `${(index + 1).toString(16).padStart(12, "0")}:${pagina}`,
    pagina,
    titulo: secret ? "Comitê de IA" : "Perguntas Frequentes",
    data: day(index),
    resumo: secret ? `Resumo Zetacomitê ${index}` : `Nova pergunta ${index}`,
  };
});

let server: RunningServer;
let dist: string;
const who: Record<string, TestUser> = {};
const get = (user: TestUser | null, query = "") =>
  fetch(`${server.url}/api/novidades${query}`, { headers: user ? { cookie: `b1_session=${user.token}` } : {} });
type Page = { itens: NewsItem[]; proximo: string | null; ultimaVisita?: number | null };

beforeAll(async () => {
  dist = distWithRequiredPages([], "noticias", NEWS);
  server = await startBuiltServer({ B1_DIST_DIR: dist });
  for (const role of ["visualizador", "lider"]) who[role] = await createTestUser(server.db, [role]);
});
afterAll(async () => {
  await server?.stop();
  fs.rmSync(dist, { recursive: true, force: true });
});

describe("/api/novidades", () => {
  it("refuses anonymous readers", async () => {
    expect((await get(null)).status).toBe(401);
  });

  it("pages a visualizador through every change they may see and never one of a lider page", async () => {
    let text = "";
    let page = (await (await get(who.visualizador!)).json()) as Page;
    const seen = [...page.itens];
    text += JSON.stringify(page);
    while (page.proximo) {
      const response = await get(who.visualizador!, `?antes=${encodeURIComponent(page.proximo)}`);
      text += await response.clone().text();
      page = (await response.json()) as Page;
      seen.push(...page.itens);
    }
    expect(seen.map((entry) => entry.id)).toEqual(NEWS.filter((entry) => entry.pagina === "/faq").map((entry) => entry.id));
    expect(text).not.toContain("Zetacomitê");
    expect(text).not.toContain("comite-ia");
    const lider = (await (await get(who.lider!)).json()) as Page;
    expect(lider.itens.slice(0, 3).map((entry) => entry.pagina)).toEqual(["/faq", "/comite-ia", "/faq"]);
  });

  it("returns the previous visit with the first page, so the page can mark what is new", async () => {
    const user = await createTestUser(server.db, ["visualizador"]);
    const before = Date.now();
    expect(((await (await get(user)).json()) as Page).ultimaVisita).toBeNull();
    const second = ((await (await get(user)).json()) as Page).ultimaVisita!;
    expect(second).toBeGreaterThanOrEqual(before);
    // Older pages do not move the visit.
    const first = (await (await get(user)).json()) as Page;
    await get(user, `?antes=${encodeURIComponent(first.proximo!)}`);
    expect(((await (await get(user)).json()) as Page).ultimaVisita).toBeGreaterThanOrEqual(first.ultimaVisita!);
  });

  it("refuses a malformed cursor in Portuguese", async () => {
    const response = await get(who.visualizador!, "?antes=%3Cscript%3E");
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toMatch(/inválido/);
  });
});
