/**
 * `npm run bench`: measures the BUILT portal on loopback and prints a table (JSON in
 * bench-results/). Options: --duration <s> (default 10), --skip-build (reuse dist/),
 * --audit-rows / --users / --sessions (scale data, default 1,000,000 / 10,000 / 50,000),
 * --samples <n> (requests per audit filter, default 40), --skip-scale.
 * Over 200 lines because it is one script: set-up, the scenarios in order, and one report; the
 * scale scenarios live in scale.ts.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { chromium } from "@playwright/test";
import { ARGON2_PARAMS } from "../../src/lib/server/auth/password/hash.ts";
import { JS_BUDGET, pageWeights } from "./page-weights.ts";
import { closeDatabase, openDatabase, type Db } from "../../src/lib/server/data/db.ts";
import { createSession } from "../../src/lib/server/sessions/session.ts";
import { seedDatabase } from "../../src/lib/server/data/seed.ts";
import { createUser } from "../../src/lib/server/auth/user.ts";
import { benchEngines, type EngineLoad as Load } from "./postgres.ts";
import { freePort } from "../pg-cluster.mjs";
import { PAGE_RATE, benchScale, scaleTargets, type ScaleFigures } from "./scale.ts";
import { chromiumLaunchOptions } from "../chromium.ts";
import { FULL_SCALE, seedScale } from "../seed-scale.ts";

const args = process.argv.slice(2);
const duration = Number(args[args.indexOf("--duration") + 1]) || 10;
const skipBuild = args.includes("--skip-build");
const option = (name: string, fallback: number) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback);
const skipScale = args.includes("--skip-scale");
const skipPostgres = args.includes("--skip-postgres");
const scaleSizes = {
  users: option("--users", FULL_SCALE.users),
  audit: option("--audit-rows", FULL_SCALE.audit),
  sessions: option("--sessions", FULL_SCALE.sessions),
};
const samples = option("--samples", 40);
const CONNECTIONS = 50;

function log(message: string) {
  console.log(`• ${message}`);
}

function buildTime(): number | null {
  if (skipBuild) return null;
  log("npm run build …");
  const started = Date.now();
  const result = spawnSync("npm", ["run", "build"], { stdio: "ignore", env: { ...process.env, ASTRO_TELEMETRY_DISABLED: "1" } });
  if (result.status !== 0) throw new Error("o build falhou; rode `npm run build` para ver o erro");
  return (Date.now() - started) / 1000;
}

function startProcess(
  command: string,
  argv: string[],
  env: Record<string, string>,
  ready: RegExp,
): Promise<{ child: ChildProcess; match: RegExpExecArray }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, argv, { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout!.on("data", (chunk) => {
      out += chunk;
      const match = ready.exec(out);
      if (match) resolve({ child, match });
    });
    child.on("exit", (code) => reject(new Error(`${command} saiu com código ${code}`)));
  });
}

/** A confirmed user with an open session, created through the app's own code. */
async function benchUser(db: Db, role: string) {
  const email = `bench-${role}@b1.example.com`;
  const password = "Senha@Bench1";
  const created = await createUser(db, { email, fullName: `Bench ${role}`, password, roleNames: [role], confirmed: true });
  if (!created.ok) throw new Error(`não foi possível criar o usuário ${email}: ${created.error}`);
  return { email, password, token: (await createSession(db, created.userId)).token };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/**
 * Gate vs static server, measured side by side: ROUNDS alternating runs of duration/ROUNDS seconds
 * each, medians reported, so a slow moment of this shared VM cannot land on one side only.
 */
const ROUNDS = 3;
async function paired(a: Parameters<typeof load>, b: Parameters<typeof load>): Promise<[Load, Load]> {
  const runs: [Load[], Load[]] = [[], []];
  const seconds = Math.max(2, Math.round(duration / ROUNDS));
  for (let round = 0; round < ROUNDS; round++) {
    runs[0].push(await load(a[0], a[1], seconds));
    runs[1].push(await load(b[0], b[1], seconds));
  }
  const summarize = (list: Load[]): Load => ({
    reqPerSec: median(list.map((r) => r.reqPerSec)),
    p50: median(list.map((r) => r.p50)),
    p99: median(list.map((r) => r.p99)),
    errors: list.reduce((sum, r) => sum + r.errors, 0),
    statuses: list.reduce<Record<string, number>>((sum, r) => {
      for (const [key, count] of Object.entries(r.statuses)) sum[key] = (sum[key] ?? 0) + count;
      return sum;
    }, {}),
  });
  return [summarize(runs[0]), summarize(runs[1])];
}

async function load(url: string, options: Partial<autocannon.Options> = {}, seconds = duration): Promise<Load> {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: seconds, ...options });
  const statuses: Record<string, number> = {};
  for (const key of ["1xx", "2xx", "3xx", "4xx", "5xx"] as const) if (result[key]) statuses[key] = result[key];
  return {
    reqPerSec: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    statuses,
  };
}

async function searchTimes(baseUrl: string, token: string) {
  const browser = await chromium.launch(chromiumLaunchOptions);
  try {
    const context = await browser.newContext();
    await context.addCookies([{ name: "b1_session", value: token, url: baseUrl }]);
    const page = await context.newPage();
    await page.goto(`${baseUrl}/faq`);
    const queries = ["mvp", "discovery", "métricas de produto"];
    return await page.evaluate(async (list) => {
      const url = "/pagefind/pagefind.js";
      const pagefind = await import(/* @vite-ignore */ url);
      await pagefind.init();
      const out = [];
      for (const query of list) {
        const started = performance.now();
        const search = await pagefind.search(query);
        await Promise.all(search.results.slice(0, 5).map((r: { data: () => Promise<unknown> }) => r.data()));
        out.push({ query, results: search.results.length, ms: Math.round((performance.now() - started) * 10) / 10 });
      }
      return out;
    }, queries);
  } finally {
    await browser.close();
  }
}

async function main() {
  const build = buildTime();
  if (!fs.existsSync("dist/gate/main.mjs")) throw new Error("dist/ não existe: rode `npm run build` antes (ou sem --skip-build)");

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "b1-bench-"));
  const dbPath = path.join(dataDir, "db.sqlite");
  const db = await openDatabase(dbPath, { migrate: true });
  // Opening only migrates; the system roles and pages come from the seed, as at the server's start.
  await seedDatabase(db);
  const user = await benchUser(db, "visualizador");
  const admin = await benchUser(db, "admin");
  if (!skipScale) {
    log(`seed:scale — ${scaleSizes.users} usuários, ${scaleSizes.audit} linhas de auditoria, ${scaleSizes.sessions} sessões …`);
    const seconds = await seedScale(db, scaleSizes);
    log(`dados de escala em ${seconds.users + seconds.audit + seconds.sessions} s`);
  }
  const gatePort = await freePort();
  // PUBLIC_URL is where the gate listens, so the sign-in scenario passes the origin check.
  const gate = await startProcess(
    process.execPath,
    ["dist/gate/main.mjs"],
    {
      PORT: String(gatePort),
      HOST: "127.0.0.1",
      PUBLIC_URL: `http://127.0.0.1:${gatePort}`,
      DATABASE_PATH: dbPath,
      AUTH_ALLOWED_DOMAINS: "b1.example.com",
      RATE_LIMIT_MULTIPLIER: "1000000",
    },
    /no ar em (http:\/\/[^\s]+)/,
  );
  const gateUrl = gate.match[1]!;
  const staticServer = await startProcess(process.execPath, ["scripts/bench/static-server.mjs", "dist/pages", "0"], {}, /static on (\d+)/);
  const staticUrl = `http://127.0.0.1:${staticServer.match[1]}`;
  const cookie = { cookie: `b1_session=${user.token}` };
  // What a browser sends: every current browser accepts brotli and gzip.
  const browser = { "accept-encoding": "gzip, deflate, br, zstd" };

  try {
    log(
      `gate ${gateUrl} · estático ${staticUrl} · ${duration}s por cenário (gate × estático: ${ROUNDS} rodadas alternadas, medianas) · ${CONNECTIONS} conexões`,
    );
    await load(`${gateUrl}/faq`, { headers: { ...cookie, ...browser } }, 2); // warm-up
    await load(`${staticUrl}/faq/`, { headers: browser }, 2);
    const [gatePage, staticPage] = await paired(
      [`${gateUrl}/faq`, { headers: { ...cookie, ...browser } }],
      [`${staticUrl}/faq/`, { headers: browser }],
    );
    // The same pair without compression: both sides then move the whole 37 KB per request.
    const [gateIdentity, staticIdentity] = await paired([`${gateUrl}/faq`, { headers: cookie }], [`${staticUrl}/faq/`, {}]);
    const anonAuth = await load(`${gateUrl}/auth`, { headers: browser });
    const anonRedirect = await load(`${gateUrl}/faq`);
    const signIn = await load(`${gateUrl}/api/auth/sign-in`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: gateUrl },
      body: JSON.stringify({ email: user.email, password: user.password }),
    });
    log("cenário SQLite × PostgreSQL: página conectada e uma API que lê o banco …");
    const engines = skipPostgres ? null : await benchEngines({ gateUrl, token: user.token }, (url, options) => load(url, options));
    let scale: ScaleFigures | null = null;
    if (!skipScale) {
      log("cenários de escala: filtros da auditoria, busca de usuários, página durante exportação …");
      scale = await benchScale({
        gateUrl,
        serverPid: gate.child.pid!,
        adminToken: admin.token,
        viewerToken: user.token,
        samples,
        seconds: duration,
      });
    }
    const weights = pageWeights();
    const search = await searchTimes(gateUrl, user.token).catch((error: unknown) => {
      console.log(`Tempo de busca: n/d (Chromium indisponível: ${error instanceof Error ? error.message.split("\n")[0] : error})`);
      return [] as { query: string; results: number; ms: number }[];
    });

    const ratio = Math.round((gatePage.reqPerSec / staticPage.reqPerSec) * 100) / 100;
    const identityRatio = Math.round((gateIdentity.reqPerSec / staticIdentity.reqPerSec) * 100) / 100;
    const islandFree = weights.filter((w) => w.islands === 0);
    const withIslands = weights.filter((w) => w.islands > 0);
    const maxJs = (rows: typeof weights) => Math.max(0, ...rows.map((w) => w.jsGzip));
    const targets = {
      "gate ≥ 2× estático (req/s)": ratio >= 2,
      "p99 do gate ≤ 10 ms": gatePage.p99 <= 10,
      "página sem ilhas ≤ 10 KB de JS (gzip)": maxJs(islandFree) <= JS_BUDGET.static,
      "página com ilhas ≤ 80 KB de JS (gzip)": maxJs(withIslands) <= JS_BUDGET.islands,
      ...(build === null ? {} : { "build < 60 s": build < 60 }),
      ...(scale ? scaleTargets(scale) : {}),
    };

    console.log(`\nMáquina: ${os.cpus().length} núcleos, Node ${process.version}`);
    console.table({
      "GET /faq conectado (gate, br)": gatePage,
      "GET /faq/ (estático sirv, br pedido)": staticPage,
      "GET /faq conectado (gate, sem compressão)": gateIdentity,
      "GET /faq/ (estático sirv, sem compressão)": staticIdentity,
      "GET /auth anônimo": anonAuth,
      "GET /faq anônimo (302)": anonRedirect,
      "POST /api/auth/sign-in": signIn,
    });
    if (engines) console.table(engines);
    console.log(
      `Razão gate/estático: ${ratio}× com Accept-Encoding de navegador, ${identityRatio}× sem compressão   Argon2id: ${ARGON2_PARAMS.memoryCost} KiB, t=${ARGON2_PARAMS.timeCost}, p=${ARGON2_PARAMS.parallelism}`,
    );
    console.table(
      Object.fromEntries(
        weights.map((w) => [
          w.route,
          { ilhas: w.islands, HTML: w.htmlRaw, "HTML gz": w.htmlGzip, JS: w.jsRaw, "JS gz": w.jsGzip, CSS: w.cssRaw, "CSS gz": w.cssGzip },
        ]),
      ),
    );
    console.table(Object.fromEntries(search.map((s) => [s.query, { resultados: s.results, ms: s.ms }])));
    if (build !== null) console.log(`Build: ${build.toFixed(1)} s`);
    if (scale) {
      console.log(
        `\nEscala: ${scaleSizes.users} usuários, ${scaleSizes.audit} linhas de auditoria, ${scaleSizes.sessions} sessões (${samples} requisições por filtro)`,
      );
      console.table(Object.fromEntries(Object.entries(scale.filters).map(([name, f]) => [`GET /api/audit-logs ${name}`, f])));
      console.table({ [`GET ${scale.adminSearch.path}`]: scale.adminSearch });
      console.table({
        "GET /faq, 50 conexões, carga máxima: antes da exportação": scale.pageAlone.saturated,
        "GET /faq, 50 conexões, carga máxima: durante a exportação": scale.pageDuringExport.saturated,
        [`GET /faq, 50 conexões a ${PAGE_RATE} req/s: antes da exportação`]: scale.pageAlone.paced,
        [`GET /faq, 50 conexões a ${PAGE_RATE} req/s: durante a exportação`]: scale.pageDuringExport.paced,
      });
      console.log(
        `Exportação CSV completa: ${scale.export.rows} linhas em ${scale.export.seconds} s; RSS do servidor +${scale.export.rssGrowthMb} MB`,
      );
    }
    console.table(Object.fromEntries(Object.entries(targets).map(([k, v]) => [k, { ok: v ? "sim" : "NÃO" }])));

    fs.mkdirSync("bench-results", { recursive: true });
    const out = path.join("bench-results", `${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
    fs.writeFileSync(
      out,
      JSON.stringify(
        {
          cores: os.cpus().length,
          node: process.version,
          duration,
          connections: CONNECTIONS,
          gatePage,
          staticPage,
          ratio,
          gateIdentity,
          staticIdentity,
          identityRatio,
          anonAuth,
          anonRedirect,
          signIn,
          engines,
          argon2: ARGON2_PARAMS,
          weights,
          search,
          build,
          scaleSizes: skipScale ? null : scaleSizes,
          scale,
          targets,
        },
        null,
        2,
      ),
    );
    console.log(`Resultados: ${out}`);
  } finally {
    gate.child.kill();
    staticServer.child.kill();
    await closeDatabase(db);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(`Erro: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
