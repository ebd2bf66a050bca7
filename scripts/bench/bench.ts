/**
 * `npm run bench`: measures the BUILT portal on loopback and prints a table (JSON in
 * bench-results/). Options: --duration <s> (default 10), --skip-build (reuse dist/),
 * --audit-rows / --users / --sessions (scale data, default 1,000,000 / 10,000 / 50,000),
 * --samples <n> (requests per audit filter, default 40), --rounds <n> (alternating rounds of the
 * gate × sirv × node:http comparison, default 3; --duration is split over them), --skip-cost,
 * --skip-scale, --skip-postgres, --skip-search, --soak [s] (memory under the mixed load, 600 s by default; --soak-idle <s>, 120),
 * --profile [s] (CPU profile of the gate serving /faq, 10 s by default),
 * --lb (three instances on one PostgreSQL behind HAProxy, see lb-run.ts; DATABASE_URL or a throw-away cluster),
 * --scale 100k (the scale scenarios alone at 100,000 users, 10,000,000 audit rows and 50,000
 * sessions; with DATABASE_URL=postgres://… in the environment, on that empty PostgreSQL database,
 * or with --seeded on one seed:scale already filled), --export-seconds <s> (stop reading the CSV
 * export after that long: RSS growth over part of it),
 * --insights (alone: Insights at 100,000 people × 50 pages × 400 days of aggregates, report p95, gate CPU with
 * counting on/off, page p99 under 200 beacons/s; --people / --days / --samples / --beacon-seconds / --beacon-rounds /
 * --insights-phases report,cpu,beacons; see insights.ts),
 * --reading (alone: the required-reading report and pending count at 100,000 people × 50 pages,
 * --people / --pages / --samples to change the sizes; see reading.ts),
 * --memory [s] (alone: RSS fresh, after mixed load + full CSV exports and idle, per allocator
 * setting; --audit-rows (300,000 here), --exports, --memory-idle, --arenas, --repeat; see memory.ts).
 * --scim-sync [N] (alone: a directory's first SCIM sync of N people, 100,000 by default, on SQLite
 * and PostgreSQL, then lists and lookups at that size; --concurrency / --groups / --batch /
 * --samples / --engine sqlite|postgres, see scim-sync.ts).
 * --search-quality (alone: recall@1/@3 and MRR of the search dialog over search-queries.ts, and the bytes of a
 * first search; --verbose, --only <tipo>; see search-quality.ts).
 * --audit-stream (alone: audit streaming to a local webhook at 1,000 rows/s, receiver down and back,
 * page p99 meanwhile; --audit-stream-seconds <s> per phase, 60 by default; see audit-stream.ts).
 * Over 200 lines because it is one script: set-up, the scenarios in order, and one report; the
 * page-cost, scale, soak and profile scenarios live in their own files.
 */
import { spawnSync } from "node:child_process";
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
import { findBinDir, freePort, startCluster } from "../pg-cluster.mjs";
import { PAGE_RATE, benchScale, scaleReport, scaleTargets, type ScaleFigures } from "./scale.ts";
import { chromiumLaunchOptions } from "../chromium.ts";
import { FULL_SCALE, seedScale } from "../seed-scale.ts";
import { benchPageCost, DEFAULT_ROUNDS, pageCostTargets, type PageCostFigures } from "./page-cost.ts";
import { gateNodeFlags, loadAverage, serverCore, startServer } from "./process.ts";
import { benchSoak, type SoakFigures } from "./soak.ts";
import { profileGate, type Frame } from "./profile.ts";
import { benchReading } from "./reading.ts";
import { benchInsights, INSIGHTS_PHASES, type InsightsPhase } from "./insights.ts";
import { benchMemory } from "./memory.ts";
import { benchScimSync } from "./scim-sync.ts";
import { benchAuditStream } from "./audit-stream.ts";
import { benchSearchQuality } from "./search-quality.ts";
import { QUERY_KINDS, type QueryKind } from "./search-queries.ts";

const args = process.argv.slice(2);
const duration = Number(args[args.indexOf("--duration") + 1]) || 10;
const skipBuild = args.includes("--skip-build");
const option = (name: string, fallback: number) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback);
/** `--scale <preset>`: the scale scenarios alone, at a named size. */
const SCALE_PRESETS: Record<string, typeof FULL_SCALE> = {
  "10k": FULL_SCALE,
  "100k": { users: 100_000, audit: 10_000_000, sessions: 50_000 },
};
const scalePreset = args.includes("--scale") ? SCALE_PRESETS[args[args.indexOf("--scale") + 1] ?? ""] : undefined;
if (args.includes("--scale") && !scalePreset) throw new Error(`--scale aceita ${Object.keys(SCALE_PRESETS).join(" ou ")}`);
const skipScale = args.includes("--skip-scale");
const skipPostgres = args.includes("--skip-postgres") || Boolean(scalePreset);
const skipSearch = args.includes("--skip-search") || Boolean(scalePreset);
const skipCost = args.includes("--skip-cost") || Boolean(scalePreset);
/** Where the scale data goes: an empty PostgreSQL database named by DATABASE_URL, or a temporary SQLite file. */
const pgTarget = process.env.DATABASE_URL?.startsWith("postgres") ? process.env.DATABASE_URL : null;
/** A flag with an optional number after it: null when absent, `fallback` when given bare. */
const optionalNumber = (name: string, fallback: number) => {
  if (!args.includes(name)) return null;
  const value = Number(args[args.indexOf(name) + 1]);
  return Number.isFinite(value) && value > 0 ? value : fallback;
};
const soakSeconds = optionalNumber("--soak", 600);
const soakIdleSeconds = option("--soak-idle", 120);
const profileSeconds = optionalNumber("--profile", 10);
/** `--profile-page <path>` (default /faq) and `--profile-br` (brotli instead of identity): what the profiled gate serves. */
const profilePage = args.includes("--profile-page") ? (args[args.indexOf("--profile-page") + 1] ?? "/faq") : "/faq";
const profileEncoding = args.includes("--profile-br") ? "br" : "identity";
const scaleSizes = {
  users: option("--users", (scalePreset ?? FULL_SCALE).users),
  audit: option("--audit-rows", (scalePreset ?? FULL_SCALE).audit),
  sessions: option("--sessions", (scalePreset ?? FULL_SCALE).sessions),
};
const samples = option("--samples", 40);
const rounds = option("--rounds", DEFAULT_ROUNDS);
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

/** A confirmed user with an open session, created through the app's own code. */
async function benchUser(db: Db, role: string) {
  const email = `bench-${role}@b1.example.com`;
  const password = "Senha@Bench1";
  const created = await createUser(db, { email, fullName: `Bench ${role}`, password, roleNames: [role], confirmed: true });
  if (!created.ok) throw new Error(`não foi possível criar o usuário ${email}: ${created.error}`);
  return { email, password, token: (await createSession(db, created.userId)).token };
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

/** Cold opens of the search: a fresh tab each time, from loading pagefind.js to the first query's top results. */
const COLD_SEARCH_SAMPLES = 7;

async function searchTimes(baseUrl: string, token: string) {
  const browser = await chromium.launch(chromiumLaunchOptions);
  try {
    const context = await browser.newContext();
    await context.addCookies([{ name: "b1_session", value: token, url: baseUrl }]);
    const cold: number[] = [];
    for (let i = 0; i < COLD_SEARCH_SAMPLES; i++) {
      const tab = await context.newPage();
      // A fresh tab with the HTTP cache emptied: what a reader waits for at the first search of a visit.
      const cdp = await context.newCDPSession(tab);
      await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
      await tab.goto(`${baseUrl}/faq`);
      cold.push(
        await tab.evaluate(async () => {
          const started = performance.now();
          const url = "/pagefind/pagefind.js";
          const pagefind = await import(/* @vite-ignore */ url);
          await pagefind.init();
          const search = await pagefind.search("mvp");
          await Promise.all(search.results.slice(0, 5).map((r: { data: () => Promise<unknown> }) => r.data()));
          return Math.round((performance.now() - started) * 10) / 10;
        }),
      );
      await tab.close();
    }
    const page = await context.newPage();
    await page.goto(`${baseUrl}/faq`);
    const queries = ["mvp", "discovery", "métricas de produto"];
    const warm = await page.evaluate(async (list) => {
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
    cold.sort((a, b) => a - b);
    const coldRow = {
      query: `primeira busca da visita "mvp" (mediana de ${cold.length}; ${cold[0]}–${cold.at(-1)} ms)`,
      results: warm[0]?.results ?? 0,
      ms: cold[cold.length >> 1]!,
    };
    return [coldRow, ...warm];
  } finally {
    await browser.close();
  }
}

async function main() {
  const build = buildTime();
  if (!fs.existsSync("dist/gate/main.mjs")) throw new Error("dist/ não existe: rode `npm run build` antes (ou sem --skip-build)");

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "b1-bench-"));
  const dbPath = path.join(dataDir, "db.sqlite");
  const db = await openDatabase(pgTarget ?? dbPath, { migrate: true });
  // Opening only migrates; the system roles and pages come from the seed, as at the server's start.
  await seedDatabase(db);
  const user = await benchUser(db, "visualizador");
  let seedSeconds: number | null = null;
  const admin = await benchUser(db, "admin");
  // --seeded: the database in DATABASE_URL already holds the seed:scale data of these sizes.
  if (!skipScale && !args.includes("--seeded")) {
    log(
      `seed:scale (${pgTarget ? "PostgreSQL" : "SQLite"}) — ${scaleSizes.users} usuários, ${scaleSizes.audit} linhas de auditoria, ${scaleSizes.sessions} sessões · carga média ${loadAverage()} …`,
    );
    const seconds = await seedScale(db, scaleSizes, (line) => log(line));
    seedSeconds = Math.round((seconds.users + seconds.audit + seconds.sessions + seconds.analyze) * 10) / 10;
    log(`dados de escala em ${seedSeconds} s · carga média ${loadAverage()}`);
  }
  // The gate as `npm run serve` starts it; PUBLIC_URL is where it listens, so the sign-in scenario
  // passes the origin check. Request logs on (info), read by this process as a supervisor would.
  const nodeFlags = gateNodeFlags();
  const gateEnv = {
    HOST: "127.0.0.1",
    DATABASE_PATH: dbPath,
    AUTH_ALLOWED_DOMAINS: "b1.example.com",
    RATE_LIMIT_MULTIPLIER: "1000000",
    LOG_LEVEL: "info",
    LOG_PRETTY: "0",
  };
  // B1_GATE_PORT: the first gate's port, when the machine assigns this run a range (a free port otherwise).
  let fixedPort = process.env.B1_GATE_PORT ? Number(process.env.B1_GATE_PORT) : null;
  const startGate = async (env: Record<string, string> = {}) => {
    const port = fixedPort ?? (await freePort());
    fixedPort = null;
    const started = await startServer(
      process.execPath,
      [...nodeFlags, "dist/gate/main.mjs"],
      { ...gateEnv, PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}`, ...env },
      /no ar em (http:\/\/[^\s]+)/,
    );
    return { child: started.child, url: started.match[1]!, pid: started.child.pid! };
  };
  const gate = await startGate();
  const gateUrl = gate.url;
  const cookie = `b1_session=${user.token}`;
  // What a browser sends: every current browser accepts brotli and gzip.
  const browser = { "accept-encoding": "gzip, deflate, br, zstd" };

  try {
    log(
      `gate ${gateUrl} (node ${nodeFlags.join(" ")}) · ${duration} s por servidor e cenário, em ${rounds} rodadas alternadas (medianas) · ${CONNECTIONS} conexões · ` +
        (serverCore === null ? "servidores sem fixar núcleo (≤ 2 núcleos ou sem taskset)" : `servidores no núcleo ${serverCore}`) +
        ` · carga média ${loadAverage()}`,
    );
    const loadBefore = loadAverage();
    const costs = skipCost
      ? null
      : await benchPageCost({
          gate: { pid: gate.pid, url: gateUrl },
          startGate: async (env) => {
            const started = await startGate(env);
            return { pid: started.pid, url: started.url, stop: () => started.child.kill() };
          },
          cookie,
          seconds: duration,
          workDir: dataDir,
          rounds,
        });
    const loadAfter = loadAverage();
    const anonAuth = await load(`${gateUrl}/auth`, { headers: browser });
    const anonRedirect = await load(`${gateUrl}/faq`);
    const signIn = await load(`${gateUrl}/api/auth/sign-in`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: gateUrl },
      body: JSON.stringify({ email: user.email, password: user.password }),
    });
    if (!skipPostgres) log("cenário SQLite × PostgreSQL: página conectada e uma API que lê o banco …");
    const engines = skipPostgres ? null : await benchEngines({ gateUrl, token: user.token }, (url, options) => load(url, options));
    let scale: ScaleFigures | null = null;
    if (!skipScale) {
      log("cenários de escala: filtros da auditoria, busca de usuários, página durante exportação …");
      scale = await benchScale({
        gateUrl,
        serverPid: gate.pid,
        engine: pgTarget ? "postgres" : "sqlite",
        adminToken: admin.token,
        viewerToken: user.token,
        samples,
        seconds: duration,
        exportSeconds: args.includes("--export-seconds") ? option("--export-seconds", 0) : undefined,
      });
    }
    const weights = scalePreset ? [] : pageWeights();
    const search = skipSearch
      ? []
      : await searchTimes(gateUrl, user.token).catch((error: unknown) => {
          console.log(`Tempo de busca: n/d (Chromium indisponível: ${error instanceof Error ? error.message.split("\n")[0] : error})`);
          return [] as { query: string; results: number; ms: number }[];
        });
    let profile: Frame[] | null = null;
    if (profileSeconds !== null) {
      log(`perfil de CPU do gate (node --cpu-prof), GET ${profilePage} conectado (${profileEncoding}) por ${profileSeconds} s …`);
      profile = await profileGate({
        env: gateEnv,
        nodeFlags,
        port: await freePort(),
        cookie,
        seconds: profileSeconds,
        page: profilePage,
        encoding: profileEncoding,
        dir: path.join(dataDir, "cpu-profile"),
      });
    }
    let soak: SoakFigures | null = null;
    if (soakSeconds !== null) {
      log(`soak: carga mista (logins, páginas, trilha, edições de admin) por ${soakSeconds} s e ${soakIdleSeconds} s parado …`);
      soak = await benchSoak({
        db,
        env: gateEnv,
        nodeFlags,
        port: await freePort(),
        metricsPort: await freePort(),
        seconds: soakSeconds,
        idleSeconds: soakIdleSeconds,
      });
    }

    const islandFree = weights.filter((w) => w.islands === 0);
    const withIslands = weights.filter((w) => w.islands > 0);
    const maxJs = (rows: typeof weights) => Math.max(0, ...rows.map((w) => w.jsGzip));
    const targets = {
      ...(costs ? pageCostTargets(costs) : {}),
      ...(scalePreset
        ? {}
        : {
            "página sem ilhas ≤ 10 KB de JS (gzip)": maxJs(islandFree) <= JS_BUDGET.static,
            "página com ilhas ≤ 80 KB de JS (gzip)": maxJs(withIslands) <= JS_BUDGET.islands,
          }),
      ...(build === null ? {} : { "build < 60 s": build < 60 }),
      ...(scale ? scaleTargets(scale, seedSeconds, pgTarget ? 600 : 300) : {}),
    };

    console.log(
      `\nMáquina: ${os.cpus().length} núcleos, Node ${process.version}; carga média antes/depois das páginas: ${loadBefore} → ${loadAfter}`,
    );
    if (costs) printPageCost(costs);
    console.table({
      "GET /auth anônimo": anonAuth,
      "GET /faq anônimo (302)": anonRedirect,
      "POST /api/auth/sign-in": signIn,
    });
    if (engines) console.table(engines);
    console.log(`Argon2id: ${ARGON2_PARAMS.memoryCost} KiB, t=${ARGON2_PARAMS.timeCost}, p=${ARGON2_PARAMS.parallelism}`);
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
      console.log(
        `\nEscala — cada medida com a sua meta (${scale.engine}; carga média ao fim ${loadAverage()}, ${os.cpus().length} núcleos):`,
      );
      console.table(
        scaleReport(scale, seedSeconds, pgTarget ? 600 : 300).map((row) => ({
          medida: row.figure,
          valor: row.value,
          meta: row.target,
          ok: row.ok ? "sim" : "NÃO",
        })),
      );
    }
    if (profile) {
      console.log(`\nPerfil de CPU do gate (GET ${profilePage} conectado, ${profileEncoding}): funções com mais tempo próprio`);
      console.table(profile.map((f) => ({ função: f.function, "% da CPU": f.selfPercent, onde: f.where })));
    }
    if (soak) printSoak(soak);
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
          nodeFlags,
          serverCore,
          loadAverage: { before: loadBefore, after: loadAfter },
          costs,
          anonAuth,
          anonRedirect,
          signIn,
          engines,
          argon2: ARGON2_PARAMS,
          weights,
          search,
          build,
          scaleSizes: skipScale ? null : scaleSizes,
          seedSeconds,
          scale,
          profile,
          soak,
          targets,
        },
        null,
        2,
      ),
    );
    console.log(`Resultados: ${out}`);
  } finally {
    gate.child.kill();
    await closeDatabase(db);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

function printPageCost(costs: PageCostFigures) {
  const rows: Record<string, Record<string, number | string>> = {};
  for (const cost of costs.pages) {
    const label = `GET ${cost.page} conectado, ${cost.encoding === "br" ? "brotli" : "sem compressão"} (${cost.bytes} B)`;
    for (const [server, figures] of [
      ["gate", cost.gate],
      ["sirv", cost.sirv],
      ["node:http puro", cost.bare],
    ] as const) {
      rows[`${label} · ${server}`] = {
        "req/s": figures.reqPerSec,
        "p50 ms": figures.p50,
        "p99 ms": figures.p99,
        "CPU µs/req": figures.cpuUsPerRequest,
        "não 2xx": figures.non2xx,
      };
    }
    rows[`${label} · razões de CPU`] = { "gate/puro": cost.gateOverBare, "gate/sirv": cost.gateOverSirv };
  }
  console.table(rows);
  if (costs.requestLog) {
    const { withLogUs, withoutLogUs, share } = costs.requestLog;
    console.log(
      `Log de requisições (GET /faq sem compressão): ${withLogUs} µs/req com LOG_LEVEL=info, ${withoutLogUs} com LOG_LEVEL=error → ${Math.round(share * 1000) / 10} % da CPU do gate`,
    );
  }
}

function printSoak(soak: SoakFigures) {
  const mb = (value: number | null) => (value === null ? "n/d" : value);
  console.log(
    `\nSoak: carga mista por ${soak.seconds} s (${soak.reqPerSec} req/s, 5xx: ${soak.status5xx}), depois ${soak.idleSeconds} s parado`,
  );
  console.table(soak.perKind);
  console.table({
    início: { "RSS MB": soak.start.rssMb, "heap total MB": mb(soak.start.heapTotalMb), "heap usado MB": mb(soak.start.heapUsedMb) },
    pico: { "RSS MB": soak.peakRssMb, "heap total MB": "", "heap usado MB": "" },
    "fim da carga": {
      "RSS MB": soak.endOfLoad.rssMb,
      "heap total MB": mb(soak.endOfLoad.heapTotalMb),
      "heap usado MB": mb(soak.endOfLoad.heapUsedMb),
    },
    [`após ${soak.idleSeconds} s parado`]: {
      "RSS MB": soak.afterIdle.rssMb,
      "heap total MB": mb(soak.afterIdle.heapTotalMb),
      "heap usado MB": mb(soak.afterIdle.heapUsedMb),
    },
  });
  console.log(`RSS a cada 10 s parado (MB): ${soak.idleRssMb.join(" ")}`);
}

/** `--lb`: lb-run.ts in a process of its own whose DATABASE_URL is PostgreSQL (the schema follows it at load). */
async function benchLb() {
  if (!findBinDir() && !pgTarget)
    throw new Error("PostgreSQL não encontrado: --lb precisa de PostgreSQL (DATABASE_URL ou o pacote postgresql)");
  const cluster = pgTarget ? null : await startCluster();
  try {
    const result = spawnSync(process.execPath, ["--import", "tsx", "scripts/bench/lb-run.ts", ...args], {
      stdio: "inherit",
      env: { ...process.env, DATABASE_URL: pgTarget ?? cluster!.url },
    });
    process.exitCode = result.status ?? 1;
  } finally {
    await cluster?.stop();
  }
}

/** `--reading`: reading.ts alone, on SQLite or on DATABASE_URL's PostgreSQL. */
function benchReadingAtScale() {
  return benchReading({ people: option("--people", 100_000), pages: option("--pages", 50), samples: option("--samples", 100), pgTarget });
}

/** `--insights-phases report,cpu,beacons` (all three by default): the parts of the Insights bench to run, in their order. */
function insightsPhases(): Set<InsightsPhase> {
  const index = args.indexOf("--insights-phases");
  if (index === -1) return new Set(INSIGHTS_PHASES);
  const names = (args[index + 1] ?? "").split(",");
  const unknown = names.filter((name) => !(INSIGHTS_PHASES as readonly string[]).includes(name));
  if (unknown.length > 0)
    throw new Error(
      `--insights-phases aceita uma lista separada por vírgulas de ${INSIGHTS_PHASES.join(", ")} (recebeu ${JSON.stringify(args[index + 1] ?? "")})`,
    );
  return new Set(names as InsightsPhase[]);
}

/** A whole-number option from `min` to `max`, even if asked (a bad value stops the bench with the rule, before anything runs). */
function wholeOption(name: string, fallback: number, min: number, max: number, even = false): number {
  const value = option(name, fallback);
  if (!Number.isInteger(value) || value < min || value > max || (even && value % 2 !== 0))
    throw new Error(`${name} aceita um número inteiro de ${min} a ${max}${even ? ", par" : ""}`);
  return value;
}

/**
 * `--insights`: insights.ts alone, on SQLite or on DATABASE_URL's PostgreSQL (`npm run build` first). `--beacon-nice N`:
 * 0–19 (a lower priority needs no privilege; a higher one would, and would measure something else).
 * `--beacon-shared-cores`: the beacon comparison's gate and clients not pinned apart.
 */
function benchInsightsAtScale() {
  return benchInsights({
    people: option("--people", 100_000),
    days: option("--days", 400),
    samples: option("--samples", 60),
    beaconSeconds: option("--beacon-seconds", 60),
    beaconNice: wholeOption("--beacon-nice", 0, 0, 19),
    // At most 48: the windows' first reads, with the warm-up's, must fit in 8,000 readers × the ~15 pages they open.
    cpuWindows: wholeOption("--cpu-windows", 40, 2, 48, true),
    // 9: one round's move swung by ±20 points with the same build (A/A rounds too), so the median of 3 still moved by ~±12.
    beaconRounds: wholeOption("--beacon-rounds", 9, 1, 20),
    beaconSharedCores: args.includes("--beacon-shared-cores"),
    phases: insightsPhases(),
    pgTarget,
  });
}

/** `--memory`: memory.ts alone, on the dist/ already built (`npm run build` first). */
function benchMemoryAlone() {
  return benchMemory({
    seconds: optionalNumber("--memory", 60)!,
    idleSeconds: option("--memory-idle", 90),
    auditRows: option("--audit-rows", 300_000),
    exports: option("--exports", 2),
    arenas: args.includes("--arenas") ? (args[args.indexOf("--arenas") + 1] ?? "default").split(",") : ["default", "2+mmap"],
    repeat: option("--repeat", 2),
  });
}

/** `--scim-sync [N]`: scim-sync.ts alone, on both engines unless --engine names one. */
function benchScimSyncAtScale() {
  const engine = args.includes("--engine") ? args[args.indexOf("--engine") + 1] : null;
  if (engine !== null && engine !== "sqlite" && engine !== "postgres") throw new Error("--engine aceita sqlite ou postgres");
  return benchScimSync({
    people: optionalNumber("--scim-sync", 100_000)!,
    concurrency: option("--concurrency", 12),
    groups: option("--groups", 100),
    batch: option("--batch", 100),
    samples: option("--samples", 200),
    engines: engine === null ? ["sqlite", "postgres"] : [engine],
    pgTarget,
  });
}

/** `--audit-stream`: audit-stream.ts alone, on the dist/ already built. */
async function benchAuditStreamAlone() {
  if (!(await benchAuditStream(option("--audit-stream-seconds", 60)))) process.exitCode = 1;
}

/** `--search-quality`: search-quality.ts alone (`--verbose`, `--only <tipo>`, `--consulta "<texto>"`); builds first unless --skip-build. */
async function benchSearchQualityAlone() {
  const only = args.includes("--only") ? (args[args.indexOf("--only") + 1] ?? "") : null;
  if (only !== null && !(QUERY_KINDS as readonly string[]).includes(only)) throw new Error(`--only aceita ${QUERY_KINDS.join(", ")}`);
  buildTime();
  const query = args.includes("--consulta") ? (args[args.indexOf("--consulta") + 1] ?? "") : null;
  if (query !== null && !query.trim()) throw new Error('--consulta precisa de um texto: --consulta "como inscrever meu time"');
  if (!(await benchSearchQuality({ verbose: args.includes("--verbose"), only: only as QueryKind | null, query }))) process.exitCode = 1;
}

const scenario = args.includes("--search-quality")
  ? benchSearchQualityAlone
  : args.includes("--audit-stream")
    ? benchAuditStreamAlone
    : args.includes("--lb")
      ? benchLb
      : args.includes("--reading")
        ? benchReadingAtScale
        : args.includes("--insights")
          ? benchInsightsAtScale
          : args.includes("--memory")
            ? benchMemoryAlone
            : args.includes("--scim-sync")
              ? benchScimSyncAtScale
              : main;
scenario().catch((error: unknown) => {
  console.error(`Erro: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
