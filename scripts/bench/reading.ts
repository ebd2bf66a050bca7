/**
 * `npm run bench -- --reading`: the required-reading report and the pending count at scale —
 * 100,000 people (one in ten also líder) × 50 required pages, about 70 % of the (person, page)
 * pairs confirmed — on SQLite (a temporary file) or on the empty PostgreSQL database of
 * DATABASE_URL. The BUILT gate serves a copy of dist/ whose manifests list the 50 pages; requests
 * are sent one at a time (no concurrency) and p50/p95 printed against the ≤ 50 ms target.
 * Options: --people N (default 100,000), --pages N (default 50, at least 2), --samples N (default 100).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { roles, userRoles } from "../../db/schema/index.ts";
import type { ContentPageEntry } from "../../src/lib/content-manifest.ts";
import type { ReadingManifest, RequiredPage } from "../../src/lib/reading/required-page.ts";
import { createUser } from "../../src/lib/server/auth/user.ts";
import { closeDatabase, openDatabase, pgPool, sqliteClient, type Db } from "../../src/lib/server/data/db.ts";
import { seedDatabase } from "../../src/lib/server/data/seed.ts";
import { createSession } from "../../src/lib/server/sessions/session.ts";
import { freePort } from "../pg-cluster.mjs";
import { gateNodeFlags, loadAverage, startServer } from "./process.ts";
import { analyzeDatabase, insertScaleUsers } from "./scale-data.ts";

const TARGET_MS = 50;
const CHUNK = 50_000;

export interface ReadingBenchOptions {
  people: number;
  pages: number;
  samples: number;
  /** postgres:// URL of an empty database, or null for a temporary SQLite file. */
  pgTarget: string | null;
}

/** Deterministic: whether person `i` confirmed page `p` (about 70 %), so two runs build the same data. */
const confirmed = (i: number, p: number) => (i * 2_654_435_761 + p * 40_503) % 100 < 70;

/** `count` required pages: /sobre-b1, /comite-ia and bench pages `/leitura-bench-N` (they join the route table through benchDist). */
export function benchRequiredPages(count: number): RequiredPage[] {
  const page = (pagePath: string, title: string, version: number, roles?: RequiredPage["roles"]): RequiredPage => ({
    path: pagePath,
    title,
    file: "content/leitura-obrigatoria.yaml",
    kind: "yaml",
    version,
    summary: `Resumo da versão ${version}.`,
    ...(roles ? { roles } : {}),
    versions: Array.from({ length: version }, (_, index) => ({
      version: index + 1,
      summary: `Resumo da versão ${index + 1}.`,
      date: "2026-01-01T00:00:00.000Z",
    })),
    changesSince: {},
  });
  const pages = [page("/sobre-b1", "Sobre a B1", 2), page("/comite-ia", "Comitê de IA", 1)];
  // Every fifth page is asked of líderes only; every third is at version 2.
  for (let index = pages.length; index < count; index++)
    pages.push(page(`/leitura-bench-${index}`, `Leitura ${index}`, index % 3 === 0 ? 2 : 1, index % 5 === 0 ? ["lider"] : undefined));
  return pages;
}

/** A copy of dist/ whose content and reading manifests list the bench pages (it lives in the project, so its bundle finds node_modules). */
function benchDist(pages: RequiredPage[]): string {
  fs.mkdirSync("bench-results", { recursive: true });
  const dir = fs.mkdtempSync(path.join("bench-results", "reading-dist-"));
  fs.cpSync("dist", dir, { recursive: true });
  const content = JSON.parse(fs.readFileSync(path.join(dir, "content-pages.json"), "utf8")) as { pages: ContentPageEntry[] };
  for (const page of pages.filter((candidate) => candidate.path.startsWith("/leitura-bench-"))) {
    const slug = page.path.slice(1);
    content.pages.push({
      slug,
      path: page.path,
      title: page.title,
      description: "",
      nav: "none",
      order: 1000,
      access: "signed-in",
      file: `content/paginas/${slug}.mdx`,
    });
  }
  fs.writeFileSync(path.join(dir, "content-pages.json"), JSON.stringify(content));
  const manifest: ReadingManifest = { buildId: "bench-leitura", pages };
  fs.writeFileSync(path.join(dir, "reading.json"), JSON.stringify(manifest));
  return dir;
}

/** Bulk confirmations: one row per confirmed (person, page), the current version (an older one for a few: still pending). */
export async function insertReadingConfirmations(db: Db, ids: readonly string[], pages: RequiredPage[], now: number): Promise<number> {
  const sorted = [...ids].sort();
  const rows: [string, string, number, number][] = [];
  let written = 0;
  const flush = async () => {
    const sqlite = sqliteClient(db);
    if (sqlite) {
      const insert = sqlite.prepare("insert into reading_confirmations (user_id, page_path, version, confirmed_at) values (?, ?, ?, ?)");
      sqlite.transaction(() => {
        for (const row of rows) insert.run(row);
      })();
    } else {
      const columns: unknown[][] = [[], [], [], []];
      for (const row of rows) row.forEach((value, c) => columns[c]!.push(value));
      await pgPool(db)!.query(
        "insert into reading_confirmations (user_id, page_path, version, confirmed_at) select * from unnest($1::text[], $2::text[], $3::int[], $4::bigint[])",
        columns,
      );
    }
    written += rows.length;
    rows.length = 0;
  };
  for (let i = 0; i < sorted.length; i++) {
    for (let p = 0; p < pages.length; p++) {
      if (!confirmed(i, p)) continue;
      const page = pages[p]!;
      rows.push([sorted[i]!, page.path, page.version === 2 && i % 7 === 0 ? 1 : page.version, now - ((i * 31 + p) % 10_000_000)]);
      if (rows.length >= CHUNK) await flush();
    }
  }
  await flush();
  return written;
}

async function timed(url: string, cookie: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(url, { headers: { cookie } });
  await response.arrayBuffer();
  const ms = performance.now() - started;
  if (response.status !== 200) throw new Error(`${url} respondeu ${response.status}`);
  return ms;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

export async function benchReading(options: ReadingBenchOptions): Promise<void> {
  const log = (line: string) => console.log(`• ${line}`);
  if (!fs.existsSync("dist/gate/main.mjs")) throw new Error("dist/ não existe: rode `npm run build` antes");
  const pages = benchRequiredPages(Math.max(2, options.pages));
  const dist = benchDist(pages);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "b1-bench-leitura-"));
  const dbPath = path.join(dataDir, "db.sqlite");
  const db = await openDatabase(options.pgTarget ?? dbPath, { migrate: true });
  let gate: Awaited<ReturnType<typeof startServer>> | undefined;
  try {
    await seedDatabase(db);
    const engine = options.pgTarget ? "PostgreSQL" : "SQLite";
    log(`${engine}: ${options.people} pessoas × ${pages.length} páginas obrigatórias · carga média ${loadAverage()}`);
    let started = performance.now();
    const ids = await insertScaleUsers(db, options.people);
    const [lider] = await db.select({ id: roles.id }).from(roles).where(eq(roles.name, "lider"));
    for (let from = 0; from < ids.length; from += 10 * 500) {
      const batch = ids.slice(from, from + 10 * 500).filter((_, index) => index % 10 === 0);
      if (batch.length) await db.insert(userRoles).values(batch.map((userId) => ({ userId, roleId: lider!.id })));
    }
    log(`pessoas (1 em 10 também líder) em ${((performance.now() - started) / 1000).toFixed(1)} s`);
    started = performance.now();
    const rows = await insertReadingConfirmations(db, ids, pages, Date.now());
    log(`${rows} confirmações em ${((performance.now() - started) / 1000).toFixed(1)} s`);
    await analyzeDatabase(db);
    const admin = await createUser(db, {
      email: "bench-leitura-admin@b1.example.com",
      fullName: "Admin Bench",
      password: "Senha@Bench1",
      roleNames: ["admin"],
      confirmed: true,
    });
    if (!admin.ok) throw new Error("não foi possível criar o admin do bench");
    const adminCookie = `b1_session=${(await createSession(db, admin.userId)).token}`;
    // One session per sampled person: every pending-count request is a person the server has not cached.
    const sampled = Array.from({ length: options.samples }, (_, index) => ids[(index * 7919) % ids.length]!);
    const personCookies = await Promise.all(sampled.map(async (id) => `b1_session=${(await createSession(db, id)).token}`));

    const port = await freePort();
    gate = await startServer(
      process.execPath,
      [...gateNodeFlags(), "dist/gate/main.mjs"],
      {
        HOST: "127.0.0.1",
        PORT: String(port),
        PUBLIC_URL: `http://127.0.0.1:${port}`,
        B1_DIST_DIR: dist,
        DATABASE_PATH: dbPath,
        ...(options.pgTarget ? { DATABASE_URL: options.pgTarget } : {}),
        AUTH_ALLOWED_DOMAINS: "b1.example.com",
        RATE_LIMIT_MULTIPLIER: "1000000",
        READING_DIGEST: "false",
        LOG_LEVEL: "warn",
      },
      /no ar em (http:\/\/[^\s]+)/,
    );
    const gateStarted = performance.now();
    const base = gate.match[1]!;
    const report = `${base}/api/leitura/relatorio`;
    // The server starts counting the totals when it starts; until they are ready the report answers 503 + Retry-After.
    let asked = 0;
    for (;;) {
      asked += 1;
      const response = await fetch(report, { headers: { cookie: adminCookie } });
      await response.arrayBuffer();
      if (response.status === 200) break;
      if (response.status !== 503) throw new Error(`relatório respondeu ${response.status}`);
      // Asked again at once (not after Retry-After, as the page does): each request waits up to 5 s
      // for the count under way, so the first 200 comes when the count ends.
    }
    const cold = performance.now() - gateStarted;
    log(
      `relatório, primeira vez (os totais das ${pages.length} páginas são contados em segundo plano desde o início do servidor): ${(cold / 1000).toFixed(1)} s do servidor no ar até a primeira resposta completa, ${asked} pedidos · carga média ${loadAverage()}`,
    );
    const first = (await (await fetch(report, { headers: { cookie: adminCookie } })).json()) as { proximo: string };
    const filtered = `${report}?pagina=${encodeURIComponent("/leitura-bench-7")}&perfil=lider&situacao=pendente`;
    const scenarios: [string, (sample: number) => Promise<number>][] = [
      ["relatório: primeira página", () => timed(report, adminCookie)],
      ["relatório: página filtrada (página, perfil líder, pendentes)", () => timed(filtered, adminCookie)],
      [
        "relatório: busca por nome",
        (n) => timed(`${report}?busca=${encodeURIComponent(`pessoa ${(n * 977) % options.people}`)}`, adminCookie),
      ],
      ["relatório: página seguinte (keyset)", () => timed(`${report}?apos=${encodeURIComponent(first.proximo)}`, adminCookie)],
      ["pendências de uma pessoa", (n) => timed(`${report}/pessoas/${sampled[n]}`, adminCookie)],
      ["contagem de pendências (GET /api/leitura, sem cache)", (n) => timed(`${base}/api/leitura`, personCookies[n]!)],
    ];
    const results = [];
    for (const [name, run] of scenarios) {
      const times: number[] = [];
      for (let sample = 0; sample < options.samples; sample++) times.push(await run(sample));
      times.sort((a, b) => a - b);
      const p95 = percentile(times, 95);
      results.push({
        cenário: name,
        p50: Number(percentile(times, 50).toFixed(1)),
        p95: Number(p95.toFixed(1)),
        meta: `≤ ${TARGET_MS} ms`,
        atende: p95 <= TARGET_MS ? "sim" : "não",
      });
    }
    console.log(
      `\nLeitura obrigatória em escala (${engine}, ${options.people} pessoas × ${pages.length} páginas, ${rows} confirmações; ${options.samples} pedidos seguidos por cenário; carga média ${loadAverage()})`,
    );
    console.table(results);
    fs.writeFileSync(
      path.join("bench-results", `leitura-${new Date().toISOString().replace(/[:.]/g, "-")}.json`),
      JSON.stringify(
        { engine, people: options.people, pages: pages.length, confirmations: rows, coldReportMs: cold, results, load: loadAverage() },
        null,
        2,
      ),
    );
  } finally {
    gate?.child.kill();
    await closeDatabase(db);
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(dist, { recursive: true, force: true });
  }
}
