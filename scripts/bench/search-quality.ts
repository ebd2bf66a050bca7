/**
 * `npm run bench -- --search-quality`: how well the search answers the way people ask. The BUILT gate
 * (`npm run build` first, or without --skip-build) on a temporary SQLite database; Chromium signs in
 * as a visualizador, types each query of search-queries.ts into the search dialog (Ctrl+K) and reads
 * the result links in order. Prints recall@1, recall@3 and MRR per kind and overall against the
 * targets, then what a reader's first search of a visit downloads from /pagefind/ (bytes on the wire,
 * counted by Chromium, HTTP cache off) for a visualizador and for a limited partner, against the
 * bytes of the build before this work (BYTES_BEFORE, measured with this same script).
 * Options: --verbose (every query's top 3), --only <kind>, --consulta "<texto>" (one query's results, for editors).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium, type BrowserContext, type Page } from "@playwright/test";
import { chromiumLaunchOptions } from "../chromium.ts";
import { closeDatabase, openDatabase, type Db } from "../../src/lib/server/data/db.ts";
import { seedDatabase } from "../../src/lib/server/data/seed.ts";
import { createUser } from "../../src/lib/server/auth/user.ts";
import { createSession } from "../../src/lib/server/sessions/session.ts";
import { assignRoleByEmail, createCustomRole } from "../../src/lib/server/admin/roles.ts";
import { freePort } from "../pg-cluster.mjs";
import { gateNodeFlags, startServer } from "./process.ts";
import { KIND_LABELS, QUALITY_QUERIES, QUERY_KINDS, type QualityQuery, type QueryKind } from "./search-queries.ts";

export const QUALITY_TARGETS = { recall3Overall: 0.95, recall3Kind: 0.9, mrr: 0.85 } as const;
/** The pages of the limited partner role (what a partner with "Acesso limitado" typically gets). */
export const PARTNER_PAGES = ["/5ps", "/glossario", "/templates", "/faq"];
/** First search of a visit ("mvp"), bytes from /pagefind/, measured with this script on the build before this work (main 4c49e86, 06/12). */
export const BYTES_BEFORE = { visualizador: 117_357, parceiro: 102_950 };
const FIRST_QUERY = "mvp";

export interface QualityOptions {
  verbose: boolean;
  only: QueryKind | null;
  /** `--consulta "<texto>"`: only this query, its results and the dialog's hint line printed (for editors). */
  query?: string | null;
}

async function sessionFor(db: Db, email: string, roles: string[]): Promise<string> {
  const created = await createUser(db, { email, fullName: "Bench busca", password: "Senha@Bench1", roleNames: roles, confirmed: true });
  if (!created.ok) throw new Error(`não foi possível criar ${email}: ${created.error}`);
  return (await createSession(db, created.userId)).token;
}

/** Types `query` into the open dialog and returns the result pages in order (paths without #anchors). */
async function resultsFor(page: Page, query: string): Promise<string[]> {
  const input = page.locator("[data-search-input]");
  await input.fill(query);
  // The dialog marks the list with the query it answered (data-consulta); an older build without the
  // hint line has no such mark: wait for its status to leave "Buscando...".
  const marked = (await page.locator("[data-search-hint]").count()) > 0;
  if (marked)
    await page.waitForFunction((q) => document.querySelector("[data-search-results]")?.getAttribute("data-consulta") === q, query);
  else {
    await page.waitForTimeout(400);
    await page.waitForFunction(() => document.querySelector("[data-search-status]")?.textContent !== "Buscando...");
  }
  const hrefs = await page.locator("[data-search-results] a").evaluateAll((links) => links.map((link) => (link as HTMLAnchorElement).href));
  return hrefs.map((href) => new URL(href).pathname.replace(/\/$/, "") || "/");
}

interface Scored {
  query: QualityQuery;
  rank: number | null;
  top: string[];
  /** From typing the query to its results on screen, the dialog's 150 ms pause included. */
  ms: number;
}

function summarise(scored: readonly Scored[]) {
  const recall = (k: number) => scored.filter((item) => item.rank !== null && item.rank <= k).length / scored.length;
  const mrr = scored.reduce((sum, item) => sum + (item.rank ? 1 / item.rank : 0), 0) / scored.length;
  return { count: scored.length, recall1: recall(1), recall3: recall(3), mrr };
}

const pct = (value: number) => `${(value * 100).toFixed(1)} %`;

/**
 * Bytes of /pagefind/ responses (headers and encoded body, as on the wire) from opening the dialog to
 * the first query's results, on a fresh page with the HTTP cache off. Playwright's request events
 * include the Pagefind worker's fetches (the index, its metadata and the WebAssembly).
 */
async function firstSearchBytes(context: BrowserContext, baseUrl: string, query: string): Promise<{ bytes: number; requests: number }> {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
  await page.goto(`${baseUrl}/faq`);
  const sizes: Promise<number>[] = [];
  page.on("requestfinished", (request) => {
    if (!new URL(request.url()).pathname.startsWith("/pagefind/")) return;
    sizes.push(
      request.sizes().then((size) => {
        if (process.env.BUSCA_DETALHE)
          console.log(`    ${size.responseBodySize + size.responseHeadersSize}\t${new URL(request.url()).pathname}`);
        return size.responseBodySize + size.responseHeadersSize;
      }),
    );
  });
  await page.keyboard.press("Control+k");
  const results = await resultsFor(page, query);
  if (!results.length) throw new Error(`a primeira busca ("${query}") não trouxe resultados`);
  await page.waitForTimeout(300);
  const bytes = (await Promise.all(sizes)).reduce((sum, size) => sum + size, 0);
  await page.close();
  return { bytes, requests: sizes.length };
}

export async function benchSearchQuality(options: QualityOptions): Promise<boolean> {
  if (!fs.existsSync("dist/gate/main.mjs")) throw new Error("dist/ não existe: rode `npm run build` antes (ou sem --skip-build)");
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "b1-busca-"));
  const dbPath = path.join(dataDir, "db.sqlite");
  const db = await openDatabase(dbPath, { migrate: true });
  await seedDatabase(db);
  const readerToken = await sessionFor(db, "busca-leitor@b1.example.com", ["visualizador"]);
  const role = await createCustomRole(db, { name: "parceiros-busca", description: "", pagePaths: PARTNER_PAGES, limited: true });
  if (!role.ok) throw new Error("não foi possível criar o perfil limitado");
  const partnerToken = await sessionFor(db, "busca-parceiro@b1.example.com", []);
  if (!(await assignRoleByEmail(db, "busca-parceiro@b1.example.com", "parceiros-busca"))) throw new Error("perfil limitado não atribuído");
  await closeDatabase(db);

  const port = await freePort();
  const gate = await startServer(
    process.execPath,
    [...gateNodeFlags(), "dist/gate/main.mjs"],
    {
      HOST: "127.0.0.1",
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      DATABASE_PATH: dbPath,
      AUTH_ALLOWED_DOMAINS: "b1.example.com",
      RATE_LIMIT_MULTIPLIER: "1000000",
      INSIGHTS: "false",
      LOG_LEVEL: "warn",
    },
    /no ar em (http:\/\/[^\s]+)/,
  );
  const baseUrl = gate.match[1]!;
  const browser = await chromium.launch(chromiumLaunchOptions);
  try {
    const reader = await browser.newContext();
    await reader.addCookies([{ name: "b1_session", value: readerToken, url: baseUrl }]);
    const page = await reader.newPage();
    await page.goto(`${baseUrl}/faq`);
    await page.keyboard.press("Control+k");
    if (options.query) {
      const top = await resultsFor(page, options.query);
      const titles = await page.locator("[data-search-results] a > span:first-child").allTextContents();
      console.log(`\nBusca "${options.query}" como visualizador: ${top.length} resultado(s)`);
      for (const [index, pagePath] of top.entries()) console.log(`  ${index + 1}. ${titles[index] ?? ""} — ${pagePath}`);
      const hint = (await page.locator("[data-search-hint]").textContent())?.trim();
      if (hint) console.log(`  ${hint}`);
      return true;
    }
    const queries = QUALITY_QUERIES.filter((item) => options.only === null || item.kind === options.only);
    const scored: Scored[] = [];
    for (const query of queries) {
      const started = performance.now();
      const top = await resultsFor(page, query.query);
      const ms = performance.now() - started;
      const at = top.findIndex((pagePath) => query.expected.includes(pagePath));
      scored.push({ query, rank: at === -1 ? null : at + 1, top, ms });
    }

    console.log(`\nQualidade da busca (${queries.length} consultas, como visualizador, no diálogo de busca em Chromium)\n`);
    console.log("| Tipo | Consultas | recall@1 | recall@3 | MRR |");
    console.log("| --- | --- | --- | --- | --- |");
    const targetsMet: boolean[] = [];
    for (const kind of QUERY_KINDS) {
      const group = scored.filter((item) => item.query.kind === kind);
      if (!group.length) continue;
      const figures = summarise(group);
      targetsMet.push(figures.recall3 >= QUALITY_TARGETS.recall3Kind);
      console.log(
        `| ${KIND_LABELS[kind]} | ${figures.count} | ${pct(figures.recall1)} | ${pct(figures.recall3)} | ${figures.mrr.toFixed(3)} |`,
      );
    }
    const overall = summarise(scored);
    console.log(`| **total** | ${overall.count} | ${pct(overall.recall1)} | ${pct(overall.recall3)} | ${overall.mrr.toFixed(3)} |`);
    const times = scored.map((item) => item.ms).sort((a, b) => a - b);
    const at = (q: number) => Math.round(times[Math.min(times.length - 1, Math.floor(q * times.length))]!);
    console.log(`\nDa digitação aos resultados na tela (pausa de 150 ms do diálogo inclusa): mediana ${at(0.5)} ms, p95 ${at(0.95)} ms`);
    const missed = scored.filter((item) => item.rank === null || item.rank > 3);
    if (missed.length) {
      console.log("\nFora do top 3:");
      for (const item of missed)
        console.log(
          `  [${item.query.kind}] "${item.query.query}" → esperado ${item.query.expected.join(" ou ")}; veio ${item.top.slice(0, 3).join(", ") || "nada"}`,
        );
    }
    if (options.verbose)
      for (const item of scored)
        console.log(`  ${item.rank ?? "-"}\t[${item.query.kind}] "${item.query.query}" → ${item.top.slice(0, 3).join(", ")}`);

    const partner = await browser.newContext();
    await partner.addCookies([{ name: "b1_session", value: partnerToken, url: baseUrl }]);
    const bytes = {
      visualizador: await firstSearchBytes(
        await browser.newContext().then(async (context) => {
          await context.addCookies([{ name: "b1_session", value: readerToken, url: baseUrl }]);
          return context;
        }),
        baseUrl,
        FIRST_QUERY,
      ),
      parceiro: await firstSearchBytes(partner, baseUrl, FIRST_QUERY),
    };
    console.log(`\nPrimeira busca da visita ("${FIRST_QUERY}", cache HTTP desligado): bytes de /pagefind/ na rede`);
    const byteTargets: boolean[] = [];
    for (const who of ["visualizador", "parceiro"] as const) {
      const before = BYTES_BEFORE[who];
      const now = bytes[who];
      const ok = before === 0 || now.bytes <= before * 1.1;
      byteTargets.push(ok);
      console.log(
        `  ${who === "parceiro" ? `parceiro limitado (${PARTNER_PAGES.length} páginas)` : "visualizador"}: ${now.bytes} bytes em ${now.requests} requisições` +
          (before
            ? ` (antes ${before}; ${(((now.bytes - before) / before) * 100).toFixed(1)} %, meta ≤ +10 %: ${ok ? "sim" : "NÃO"})`
            : ""),
      );
    }

    const checks: [string, boolean][] = [
      [`recall@3 total ≥ ${pct(QUALITY_TARGETS.recall3Overall)}`, overall.recall3 >= QUALITY_TARGETS.recall3Overall],
      [`recall@3 ≥ ${pct(QUALITY_TARGETS.recall3Kind)} em cada tipo`, targetsMet.every(Boolean)],
      [`MRR ≥ ${QUALITY_TARGETS.mrr}`, overall.mrr >= QUALITY_TARGETS.mrr],
      ["bytes da primeira busca ≤ +10 % (visualizador e parceiro)", byteTargets.every(Boolean)],
    ];
    console.log("\nMetas:");
    for (const [label, ok] of checks) console.log(`  ${ok ? "sim" : "NÃO"} — ${label}`);
    return checks.every(([, ok]) => ok);
  } finally {
    await browser.close();
    gate.child.kill();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
