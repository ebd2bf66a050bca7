/**
 * Required reading end to end on a copy of the project in its own git repository: a page at
 * version 1 is built and confirmed, version 2 is committed and built, and the page then opens with
 * what changed since version 1 (summary, changed section linked to its heading in the built HTML).
 * A page required only of lideres never shows its title or summary to a visualizador (HTML, JSON,
 * search, /novidades). Slow: it builds the site twice (one to three minutes).
 */
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDatabase } from "../../../src/lib/server/data/db";
import { ContentProject, requiredMdx } from "../../support/reading-project";
import { startBuiltServer, type RunningServer } from "../../support/server";
import { createTestUser, type TestUser } from "../../support/users";

const SECRET_TITLE = "Plano Zetaquórum dos Líderes";
const SECRET_SUMMARY = "Resumo Zetaquórum restrito";
const BODY_V1 =
  "Leia com atenção.\n\n## Dados de clientes\n\nNunca cole dados de clientes.\n\n## Ferramentas aprovadas\n\nUse as ferramentas da lista.\n";
const BODY_V2 = BODY_V1.replace("Nunca cole dados de clientes.", "Dados de clientes só em ferramentas internas aprovadas pelo comitê.");

let project: ContentProject;
let server: RunningServer;
const who: Record<string, TestUser> = {};

async function get(pathname: string, user: TestUser, init: RequestInit = {}) {
  return fetch(server.url + pathname, {
    redirect: "manual",
    ...init,
    headers: { cookie: `b1_session=${user.token}`, origin: server.url, ...init.headers },
  });
}

const politica = (version: number, summary: string, body: string) =>
  requiredMdx({ title: "Política de IA", access: "signed-in", version, summary, body });

beforeAll(async () => {
  project = new ContentProject();
  project.write("content/paginas/politica-ia.mdx", politica(1, "Primeira versão da política.", BODY_V1));
  project.write(
    "content/paginas/plano-lideres.mdx",
    requiredMdx({ title: SECRET_TITLE, access: "[lider]", version: 1, summary: SECRET_SUMMARY, body: "Só para líderes.\n" }),
  );
  project.commit("política v1");
  project.build();
  server = await startBuiltServer({}, { cwd: project.root, startTimeoutMs: 90_000 });
  for (const role of ["visualizador", "lider"]) who[role] = await createTestUser(server.db, [role]);
  const confirmed = await get("/api/leitura/confirmacoes", who.lider!, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ pagina: "/politica-ia", versao: 1 }),
  });
  if (confirmed.status !== 200) throw new Error(`confirmação falhou: ${confirmed.status} ${await confirmed.text()}`);

  project.write("content/paginas/politica-ia.mdx", politica(2, "Dados de clientes só em ferramentas internas.", BODY_V2));
  project.commit("política v2");
  process.kill(server.pid, "SIGTERM");
  await server.exited;
  await closeDatabase(server.db);
  project.build();
  server = await startBuiltServer({}, { cwd: project.root, startTimeoutMs: 90_000, dataDir: server.dataDir });
}, 600_000);

afterAll(async () => {
  await server?.stop();
  project?.remove();
});

describe("a new version of a required page", () => {
  it("asks the reader who confirmed version 1 to confirm version 2", async () => {
    const status = (await (await get("/api/leitura", who.lider!)).json()) as {
      paginas: { pagina: string; versao: number; confirmada: number | null }[];
    };
    expect(status.paginas.find((item) => item.pagina === "/politica-ia")).toMatchObject({ versao: 2, confirmada: 1 });
  });

  it("opens with what changed since version 1: the summary, and a link to the changed section's heading", async () => {
    const html = await (await get("/politica-ia", who.lider!)).text();
    const since = /<section[^>]*data-desde="1"[^>]*>[\s\S]*?<\/section>/.exec(html)?.[0] ?? "";
    expect(since).toContain('data-secoes="dados-de-clientes"');
    expect(since).toContain("Nova versão: leia o que mudou");
    expect(since).toContain("Desde a versão 1, que você confirmou");
    // At the top: before the page's own content (its first heading).
    expect(html.indexOf("data-leitura-mudancas")).toBeLessThan(html.indexOf('<h2 id="dados-de-clientes"'));
    expect(since).toContain("Dados de clientes só em ferramentas internas.");
    expect(since).toMatch(/<a href="#dados-de-clientes"[^>]*>\s*Dados de clientes\s*<\/a>/);
    expect(since).not.toContain("#ferramentas-aprovadas");
    // The link lands: the built page has a heading with that id.
    expect(html).toMatch(/<h2 id="dados-de-clientes"[ >]/);
    expect(html).toMatch(/data-leitura-confirmar[^>]*data-versao="2"|data-versao="2"[^>]*data-leitura-confirmar/);
  });
});

describe("a page required only of lideres", () => {
  it("never shows its title or summary to a visualizador: pages, JSON, search", async () => {
    const visualizador = who.visualizador!;
    const status = await (await get("/api/leitura", visualizador)).text();
    expect(JSON.parse(status)).toMatchObject({ pendentes: 1 });
    let seen = status;
    for (const page of ["/", "/leitura", "/politica-ia", "/home-metodologia", "/plano-lideres"])
      seen += await (await get(page, visualizador)).text();
    const root = path.join(project.root, "dist", "search", "base", "pagefind");
    for (const file of fs.readdirSync(root, { recursive: true, withFileTypes: true })) {
      if (!file.isFile()) continue;
      const rel = path.relative(root, path.join(file.parentPath, file.name)).split(path.sep).join("/");
      const response = await get(`/pagefind/${rel}`, visualizador);
      if (response.status !== 200) continue;
      const bytes = Buffer.from(await response.arrayBuffer());
      seen += /\.pf_(fragment|index|meta|filter)$/.test(rel) ? zlib.gunzipSync(bytes).toString("utf8") : bytes.toString("utf8");
    }
    expect(seen).not.toContain("Zetaquórum");
    expect(seen).not.toContain(SECRET_SUMMARY);

    const lider = await (await get("/api/leitura", who.lider!)).text();
    expect(lider).toContain(SECRET_TITLE);
    expect(lider).toContain(SECRET_SUMMARY);
    // The same build's /novidades lists the page for a lider, with its version's summary.
    const news = (await (await get("/api/novidades", who.lider!)).json()) as {
      itens: { pagina: string; titulo: string; resumo: string }[];
    };
    expect(news.itens).toContainEqual(expect.objectContaining({ pagina: "/plano-lideres", titulo: SECRET_TITLE, resumo: SECRET_SUMMARY }));
    expect(news.itens).toContainEqual(
      expect.objectContaining({ pagina: "/politica-ia", resumo: "Dados de clientes só em ferramentas internas." }),
    );
  });
});
