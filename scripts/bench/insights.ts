/**
 * `npm run bench -- --insights`: Insights at scale, on SQLite (a temporary file) or on the empty
 * PostgreSQL database of DATABASE_URL.
 * - Data: aggregates generated directly (no page is served to build them) for 100,000 people ×
 *   50 pages × 400 days: reads per page, day and role; a full readers sketch per page and week
 *   (1,024 registers); 5,000 queries over the period; 200,000 votes and 5,000 comments. The
 *   migration's triggers fill the pre-summed tables as the rows go in.
 * - The Insights report (what /insights loads: its first view and each filter), one request at a
 *   time: p95 ≤ 100 ms over HTTP (timed-client.mjs in a fresh process); also timed in this process
 *   (insightsReport straight on the database: the queries' own time, no HTTP).
 * - Gate CPU per page served with counting on vs off (CPU µs per request from /proc): in one gate process, counting
 *   switched off (as INSIGHTS=false: nothing counted, the flush clock standing still) and on by a signal between
 *   windows of 2,000 pages (on, off, off, on, …), each after the same 30 ms pause, every reader's session already held;
 *   every counted request a first read (8,000 people × the pages open to every signed-in person: no audit row);
 *   5 processes, the median of their ratios: ≤ 1.05 ×. A sixth process gets the same signals and pauses, but its
 *   signal switches nothing (counting off on both sides): its ratio is the measurement's noise and bias.
 * - 200 search beacons/s beside 100 pages/s, both paced evenly from fresh processes (load-client.mjs,
 *   beacon-client.mjs), the beacons in every other 5 s window over 2 × --beacon-seconds (60 by default):
 *   page p99 in the windows with beacons within +10 % of the windows without; the same windows of pages alone
 *   before (their move is the noise); and the gate's extra CPU per beacon (/proc, against the pages alone).
 *   --beacon-rounds rounds (9), the median of their moves: ≤ +10 %.
 * Options: --insights-phases report,cpu,beacons (the parts to run, all by default), --people N, --days N, --samples N
 * (report requests per filter, default 60), --beacon-seconds N,
 * --beacon-rounds N, --beacon-nice N (the beacon sender's nice value, 0 by default), --beacon-shared-cores (the gate
 * and the clients on the same cores; by default the gate has a core of its own where taskset exists), --cpu-windows N (windows per
 * state and process, 40).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import {
  insightsComments,
  insightsQueries,
  insightsReaders,
  insightsReads,
  insightsSearches,
  insightsVotes,
} from "../../db/schema/index.ts";
import { ROUTES } from "../../src/lib/routes.ts";
import { closeDatabase, openDatabase, type Db } from "../../src/lib/server/data/db.ts";
import { seedDatabase } from "../../src/lib/server/data/seed.ts";
import { createSession } from "../../src/lib/server/sessions/session.ts";
import { createUser } from "../../src/lib/server/auth/user.ts";
import { dayOf, daysBefore } from "../../src/lib/server/insights/calendar.ts";
import { isoWeekOf } from "../../src/lib/server/reading/digest-week.ts";
import { insightsReport } from "../../src/lib/server/insights/report.ts";
import { FLUSH_INTERVAL_MS } from "../../src/lib/server/insights/collector.ts";
import { insightsFilterSchema } from "../../src/lib/insights/report.ts";
import type { Principal } from "../../src/lib/routes.ts";
import { freePort } from "../pg-cluster.mjs";
import { benchGateFlags, clientJson, coreSplit, cpuSeconds, loadAverage, startServer, threadCpuSeconds } from "./process.ts";
import { analyzeDatabase, insertScaleUsers } from "./scale-data.ts";

const REPORT_TARGET_MS = 100;
const CPU_RATIO_TARGET = 1.05;
/** Gate processes of the counting-cost comparison: the median of their ratios is the figure. */
const CPU_PROCESSES = 5;
/**
 * Pages per window of the comparison (~0.3 s here). Short windows, many of them: the shared machine's CPU per request
 * drifts over seconds, and the windows of an A/A run (counting off in both) differed by 9 % with 10 of 8,000 pages
 * per state, by 0–4 % with 40 of 2,000.
 */
const CPU_WINDOW_REQUESTS = 2000;
const CPU_WARM_REQUESTS = 20_000;
/** The pause before every window of the comparison, on or off (see measureProcess). */
const WINDOW_PAUSE_MS = 30;
/** Readers with a session: enough for every request of a process's on windows to be a first read. */
const READERS = 8000;
/** Beacons on, then off, every this long in the p99 comparison (each window's first 250 ms left out). */
const BEACON_WINDOW_MS = 5000;
const P99_MOVE_TARGET = 0.1;
const TZ = "America/Sao_Paulo";
const CHUNK = 1000;

/** The bench's three parts, in the order they run: the report's p95, the counting's CPU, page p99 under beacons. */
export const INSIGHTS_PHASES = ["report", "cpu", "beacons"] as const;
export type InsightsPhase = (typeof INSIGHTS_PHASES)[number];

export interface InsightsBenchOptions {
  people: number;
  days: number;
  samples: number;
  beaconSeconds: number;
  /** Nice value of the beacon sender (0): standing for browsers on other machines, it can yield the 2 cores first. */
  beaconNice: number;
  /** Windows per state (on, off) in each process of the CPU comparison. */
  cpuWindows: number;
  /** Rounds of the beacon comparison (pages alone, then with beacons): the figure is the median of their moves. */
  beaconRounds: number;
  /** The beacon comparison's gate and clients left wherever the scheduler puts them (`--beacon-shared-cores`), as before 06/12. */
  beaconSharedCores: boolean;
  /** The parts to run (`--insights-phases`): all by default; the data is generated either way. */
  phases: ReadonlySet<InsightsPhase>;
  pgTarget: string | null;
}

/** Deterministic pseudo-random numbers (two runs build the same data). */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1_664_525 + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

async function insertAll<T>(rows: Iterable<T>, write: (chunk: T[]) => Promise<unknown>): Promise<number> {
  let chunk: T[] = [];
  let count = 0;
  for (const row of rows) {
    chunk.push(row);
    if (chunk.length === CHUNK) {
      await write(chunk);
      count += chunk.length;
      chunk = [];
    }
  }
  if (chunk.length) await write(chunk);
  return count + chunk.length;
}

export async function generate(db: Db, options: Pick<InsightsBenchOptions, "people" | "days">): Promise<Record<string, number>> {
  const next = random(43);
  const today = dayOf(Date.now(), TZ);
  const content = ROUTES.filter((route) => route.reading).map((route) => route.path);
  const pages = [...content, ...Array.from({ length: Math.max(0, 50 - content.length) }, (_, index) => `/bench-${index}`)].slice(0, 50);
  const days = Array.from({ length: options.days }, (_, index) => daysBefore(today, index));
  const weeks = [...new Set(days.map((day) => isoWeekOf(Date.parse(`${day}T12:00:00Z`), "UTC")))];
  const roleShare: [string, number][] = [
    ["visualizador", 0.8],
    ["lider", 0.12],
    ["admin", 0.03],
    ["security", 0.02],
    ["sem-perfil", 0.03],
  ];
  const counts: Record<string, number> = {};
  counts.reads = await insertAll(
    (function* () {
      for (const page of pages)
        for (const day of days) {
          const total = Math.round(options.people * 0.01 * (0.2 + next()));
          yield { page, day, role: "*", reads: total };
          for (const [role, share] of roleShare) yield { page, day, role, reads: Math.round(total * share) };
        }
    })(),
    (chunk) => db.insert(insightsReads).values(chunk),
  );
  counts.readers = await insertAll(
    (function* () {
      for (const page of pages)
        for (const week of weeks)
          for (let register = 0; register < 1024; register++) yield { page, week, register, rank: 5 + Math.floor(-Math.log2(1 - next())) };
    })(),
    (chunk) => db.insert(insightsReaders).values(chunk),
  );
  const queries = Array.from({ length: 5000 }, (_, index) => `consulta ${index}`);
  counts.queries = await insertAll(
    // Rows hold a query's keyed hash and its text only at 3 people (issue 62): the bench's keys stand for the hashes.
    queries.map((query, index) => ({ query, people: index % 4 === 0 ? 2 : 3, lastDay: today, text: index % 4 === 0 ? null : query })),
    (chunk) => db.insert(insightsQueries).values(chunk),
  );
  counts.searches = await insertAll(
    (function* () {
      for (const query of queries)
        for (let index = 0; index < 20; index++) {
          const searches = 1 + Math.floor(next() * 20);
          yield {
            query,
            day: days[Math.floor(next() * days.length)]!,
            searches,
            empty: Math.floor(searches * next() * 0.3),
            opens: Math.floor(searches * next()),
          };
        }
    })(),
    (chunk) => db.insert(insightsSearches).values(chunk).onConflictDoNothing(),
  );
  counts.votes = await insertAll(
    (function* () {
      for (let index = 0; index < 200_000; index++)
        yield {
          voteKey: `bench-${index}`,
          page: pages[index % pages.length]!,
          version: "v1",
          helpful: next() < 0.7 ? 1 : 0,
          reason: null,
          day: days[Math.floor(next() * days.length)]!,
        };
    })(),
    (chunk) => db.insert(insightsVotes).values(chunk),
  );
  counts.comments = await insertAll(
    (function* () {
      for (let index = 0; index < 5000; index++)
        yield {
          id: crypto.randomUUID(),
          page: pages[index % pages.length]!,
          version: "v1",
          helpful: 0,
          reason: "confusa",
          body: `Comentário ${index}`,
          day: days[Math.floor(next() * days.length)]!,
        };
    })(),
    (chunk) => db.insert(insightsComments).values(chunk),
  );
  return counts;
}

const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.ceil((p / 100) * values.length) - 1)]!;
/** The middle value, or the mean of the two middle ones (an even count: the lower one alone would lean to the smaller figures). */
function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** The report over HTTP, one request at a time, timed by timed-client.mjs in a fresh process (the first 3 are warm-up). */
async function timeReport(url: string, cookie: string, query: string, samples: number) {
  const result = await clientJson<{ times: number[]; status: number; body: string }>([
    "scripts/bench/timed-client.mjs",
    `${url}/api/insights${query}`,
    cookie,
    String(samples + 3),
  ]);
  if (result.status !== 200) throw new Error(`/api/insights${query} respondeu ${result.status}: ${result.body}`);
  const times = result.times.slice(3);
  return { p50: percentile(times, 50), p95: percentile(times, 95) };
}

/** A gate on the bench's data, on the server core where the bench pins servers or on the `cores` given. */
async function startGate(env: Record<string, string>, cores?: string | null) {
  const port = await freePort();
  const { child } = await startServer(
    process.execPath,
    [...benchGateFlags(), "dist/gate/main.mjs"],
    { ...env, PORT: String(port), HOST: "127.0.0.1", PUBLIC_URL: `http://127.0.0.1:${port}`, LOG_LEVEL: "warn" },
    /no ar em/,
    cores,
  );
  return { child, url: `http://127.0.0.1:${port}` };
}

/** Sends SIGUSR2 to a gate started with B1_BENCH_TOGGLE_INSIGHTS and waits until counting is `on` (off: its flush clock stands still). */
function switchCounting(child: import("node:child_process").ChildProcess, on: boolean): Promise<void> {
  return signalAnswered(child, "SIGUSR2", `contagem do Insights ${on ? "ligada" : "desligada"}`);
}

/** Sends `signal` to the gate and waits until its output says `done`. */
function signalAnswered(child: import("node:child_process").ChildProcess, signal: NodeJS.Signals, done: string): Promise<void> {
  return new Promise((resolve) => {
    let out = "";
    const onData = (chunk: Buffer) => {
      out += chunk;
      if (!out.includes(done)) return;
      child.stdout!.off("data", onData);
      resolve();
    };
    child.stdout!.on("data", onData);
    child.kill(signal);
  });
}

async function stopGate(child: import("node:child_process").ChildProcess) {
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await exited;
}

export async function benchInsights(options: InsightsBenchOptions): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "b1-bench-insights-"));
  const target = options.pgTarget ?? path.join(dir, "db.sqlite");
  const engine = options.pgTarget ? "PostgreSQL" : "SQLite";
  const env: Record<string, string> = options.pgTarget ? { DATABASE_URL: options.pgTarget } : { DATABASE_PATH: target };
  env.AUTH_ALLOWED_DOMAINS = "b1.example.com";
  console.log(`Insights em escala (${engine}); carga da máquina: ${loadAverage()}`);
  const db = await openDatabase(target, { migrate: true });
  await seedDatabase(db);
  let started = performance.now();
  const counts = await generate(db, options);
  await analyzeDatabase(db);
  console.log(`Dados gerados em ${((performance.now() - started) / 1000).toFixed(1)} s: ${JSON.stringify(counts)}`);
  const admin = await createUser(db, {
    email: "bench-admin@b1.example.com",
    fullName: "Bench",
    password: "Senha@Bench1",
    roleNames: ["admin"],
    confirmed: true,
  });
  if (!admin.ok) throw new Error(admin.error);
  const adminCookie = `b1_session=${(await createSession(db, admin.userId)).token}`;
  // READERS readers (visualizadores, one password hash for all: scale-data.ts), one session each.
  const readers: string[] = [];
  for (const id of await insertScaleUsers(db, READERS)) readers.push(`b1_session=${(await createSession(db, id)).token}`);

  // 1. The report: first view and each filter, in this process (the database's time alone) and over HTTP; 2. the
  // gate's CPU per page with counting on and off; 3. page p99 with and without search beacons.
  if (options.phases.has("report")) await reportInProcess(db, admin.userId, options.samples);
  await closeDatabase(db);
  if (options.phases.has("report")) await reportOverHttp(env, adminCookie, options.samples);
  if (options.phases.has("cpu")) await measureCountingCpu(env, readers, options);
  if (options.phases.has("beacons")) await measureBeacons(env, readers, dir, options);
  fs.rmSync(dir, { recursive: true, force: true });
}

const REPORT_FILTERS = ["", "?periodo=7", "?periodo=90", "?periodo=365", "?perfil=lider", "?periodo=365&perfil=visualizador&pagina=%2Ffaq"];

/** The report's first view and each filter straight on the database (the queries' own time, no HTTP). */
async function reportInProcess(db: Db, userId: string, samples: number) {
  const principal: Principal = {
    userId,
    email: "bench-admin@b1.example.com",
    name: "Bench",
    roles: ["admin"],
    grantedPaths: new Set(),
  };
  console.log("\nRelatório em processo (insightsReport direto no banco, sem HTTP), ms:");
  for (const query of REPORT_FILTERS) {
    const filter = insightsFilterSchema.parse(Object.fromEntries(new URLSearchParams(query)));
    const times: number[] = [];
    for (let index = 0; index < samples + 3; index++) {
      const began = performance.now();
      const result = await insightsReport(db, principal, filter, TZ);
      if (!result.ok) throw new Error(result.error);
      if (index >= 3) times.push(performance.now() - began);
    }
    console.log(
      `  ${(query || "(primeira visão)").padEnd(48)} p50 ${percentile(times, 50).toFixed(1)}  p95 ${percentile(times, 95).toFixed(1)}`,
    );
  }
}

/** The same over HTTP, one request at a time, against a fresh gate. */
async function reportOverHttp(env: Record<string, string>, adminCookie: string, samples: number) {
  const gate = await startGate(env);
  const report: Record<string, { p50: number; p95: number }> = {};
  for (const query of REPORT_FILTERS) report[query || "(primeira visão)"] = await timeReport(gate.url, adminCookie, query, samples);
  await stopGate(gate.child);
  console.log("\nRelatório /api/insights (uma requisição por vez), ms:");
  for (const [name, figures] of Object.entries(report))
    console.log(
      `  ${name.padEnd(48)} p50 ${figures.p50.toFixed(1)}  p95 ${figures.p95.toFixed(1)}  ${figures.p95 <= REPORT_TARGET_MS ? "ok" : "ACIMA"} (meta ≤ ${REPORT_TARGET_MS})`,
    );
}

/** 2. Gate CPU per page with counting on and off (see below). */
async function measureCountingCpu(env: Record<string, string>, readers: string[], options: InsightsBenchOptions) {
  // Gate CPU per page, counting on vs off, in one gate process at a time (B1_BENCH_TOGGLE_INSIGHTS: SIGUSR2 switches
  // counting off, its flush clock standing still, or on again): two processes of one build differ here by up to ±15 %
  // of CPU per request, more than the 5 % to tell. Windows of CPU_WINDOW_REQUESTS pages in the order on, off, off, on, …;
  // the flushes fall in the on windows, one per FLUSH_INTERVAL_MS of counting as in production. Every request of an on window is someone's
  // first read of that page in the process (readers × pages, one sequence for all connections: autocannon walks a
  // `requests` list per connection). CPU_PROCESSES gates; the figure is the median of their ratios.
  const candidates = [
    "/faq",
    "/glossario",
    "/5ps",
    "/templates",
    "/contato",
    "/etapas-processo",
    "/metodologia-ai-first",
    "/sobre-b1",
    "/ai-first-fast-track",
    "/home-metodologia",
    "/novidades",
    "/ferramentas-ia",
    "/comite-ia",
    "/playbook-produtos",
    "/trilha-interativa",
    "/privacidade",
  ];
  // Only the pages a reader opens (200): a refusal is not a read. And only pages open to every signed-in person: a
  // person's first visit to a role-gated page in an hour writes an audit row (gate.ts auditDecision, ~1 ms on SQLite),
  // which fell in whichever window met the reader × page first, on or off, so windows alternated ~65 and ~140 µs a page.
  const probe = await startGate(env);
  const pages: string[] = [];
  for (const page of candidates.filter((path) => ROUTES.find((route) => route.path === path)?.access.kind === "signed-in")) {
    const response = await fetch(probe.url + page, {
      headers: { cookie: readers[0]!, "user-agent": "Mozilla/5.0 bench" },
      redirect: "manual",
    });
    await response.arrayBuffer();
    if (response.status === 200) pages.push(page);
  }
  await stopGate(probe.child);
  const pairs = readers.length * pages.length;
  const firstReads = CPU_WARM_REQUESTS + options.cpuWindows * CPU_WINDOW_REQUESTS;
  if (firstReads > pairs) throw new Error(`${firstReads} primeiras leituras pedidas, só ${pairs} pares leitor × página`);
  const sequence = () => {
    let next = 0;
    return [
      {
        method: "GET" as const,
        setupRequest: (request: autocannon.Request): autocannon.Request => {
          const index = next++ % pairs;
          return {
            ...request,
            path: pages[index % pages.length]!,
            headers: { cookie: readers[Math.floor(index / pages.length)]!, "user-agent": "Mozilla/5.0 bench" },
          };
        },
      },
    ];
  };
  /**
   * One gate's on/off ratio. `toggle` false: the A/A run — the same windows, signals and pauses, but the signal switches
   * nothing (B1_BENCH_TOGGLE_INSIGHTS=aa), so its ratio is what the protocol itself adds: the measurement's noise and bias.
   */
  const measureProcess = async (toggle: boolean) => {
    const server = await startGate({ ...env, INSIGHTS: "true", B1_BENCH_TOGGLE_INSIGHTS: toggle ? "1" : "aa" });
    const upAt = Date.now();
    const pid = server.child.pid!;
    const counted = sequence();
    const uncounted = sequence();
    // Warm-up of both paths, counting for at least one flush interval: a process's first flush reads the stored
    // sketches of the pages (~270 ms here, against ~45 ms for a later flush), a cost a running portal pays once.
    await autocannon({ url: server.url, connections: 8, amount: CPU_WARM_REQUESTS, requests: counted });
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, upAt + FLUSH_INTERVAL_MS + 500 - Date.now())));
    await switchCounting(server.child, false);
    await autocannon({ url: server.url, connections: 8, amount: CPU_WARM_REQUESTS, requests: uncounted });
    // Every reader's session once, counting off: the windows then measure pages served to people whose sessions
    // the gate holds, as in a running portal. Without it, each window after the warm-up looked up the sessions of
    // its ~130 new readers (a lookup per reader, ~20 µs a page more in the window that met them first, on or off alike).
    let reader = 0;
    await autocannon({
      url: server.url,
      connections: 8,
      amount: readers.length,
      requests: [
        {
          method: "GET",
          setupRequest: (request: autocannon.Request): autocannon.Request => ({
            ...request,
            path: pages[0]!,
            headers: { cookie: readers[reader++ % readers.length]!, "user-agent": "Mozilla/5.0 bench" },
          }),
        },
      ],
    });
    const used = { on: 0, off: 0 };
    const served = { on: 0, off: 0 };
    /** CPU µs per page of each window of the current block (on, off, off, on), and each block's on/off ratio. */
    let block = { on: 0, off: 0 };
    const blockRatios: number[] = [];
    for (let window = 0; window < 2 * options.cpuWindows; window++) {
      const mode = window % 4 === 0 || window % 4 === 3 ? "on" : "off";
      if (mode === "on") await switchCounting(server.child, true);
      else await signalAnswered(server.child, "SIGWINCH", "[bench] pronto");
      // Every window starts after one signal answered and the same pause: a switch's wait for the gate's answer left the
      // gate idle for a moment before each on window only, and a gate coming back from idle runs its first pages slower
      // (with the signal switching nothing, on windows cost 1.03–1.08× the off ones without the pause; 1.036× with the
      // pause alone).
      await new Promise((resolve) => setTimeout(resolve, WINDOW_PAUSE_MS));
      const before = threadCpuSeconds(pid);
      const result = await autocannon({
        url: server.url,
        connections: 8,
        amount: CPU_WINDOW_REQUESTS,
        requests: mode === "on" ? counted : uncounted,
      });
      const spent = threadCpuSeconds(pid) - before;
      used[mode] += spent;
      served[mode] += result.requests.total;
      block[mode] += spent / result.requests.total;
      if (window % 4 === 3) {
        blockRatios.push(block.on / block.off);
        block = { on: 0, off: 0 };
      }
      if (mode === "on") await switchCounting(server.child, false);
      if (result.non2xx > 0) throw new Error(`${result.non2xx} respostas não 2xx na medida de CPU (uma página que o leitor não abre?)`);
    }
    // The flushes fell every FLUSH_INTERVAL_MS of counting, as in a process that counts all the time: the first wrote
    // what the warm-up left, and what the last window left is not written (one interval's counts in, one out).
    await stopGate(server.child);
    const on = (used.on * 1e6) / served.on;
    const off = (used.off * 1e6) / served.off;
    // Beside the ratio of the sums (the figure), the median of the blocks' ratios: four windows side by side see the same
    // machine, so a burst of load from other processes, which moved whole runs by up to ±10 % here, moves few blocks.
    const blocks = median(blockRatios);
    return {
      ratio: on / off,
      blocks,
      text: `${on.toFixed(1)}/${off.toFixed(1)} = ${(on / off).toFixed(3)}× (blocos ${blocks.toFixed(3)}×)`,
    };
  };
  const ratios: number[] = [];
  const blockRatios: number[] = [];
  const processes: string[] = [];
  for (let round = 0; round < CPU_PROCESSES; round++) {
    const { ratio, blocks, text } = await measureProcess(true);
    ratios.push(ratio);
    blockRatios.push(blocks);
    processes.push(text);
  }
  const cpuNoise = await measureProcess(false);
  const ratio = median(ratios);
  console.log(
    `\nCPU do gate por página, cada uma a 1ª leitura de alguém (${pages.length} páginas × ${readers.length} leitores; µs contando/desligado no mesmo processo, ${options.cpuWindows} janelas de ${CPU_WINDOW_REQUESTS} páginas por estado; ${CPU_PROCESSES} processos): ${processes.join(" · ")} → mediana ${ratio.toFixed(3)}× ${ratio <= CPU_RATIO_TARGET ? "ok" : "ACIMA"} (meta ≤ ${CPU_RATIO_TARGET}×; dos blocos de 4 janelas: ${median(blockRatios).toFixed(3)}×); ruído e viés da medida (um processo, os mesmos sinais e pausas, a contagem desligada dos dois lados): ${cpuNoise.text}`,
  );
}

/** 3. Page p99 with and without search beacons (see below). */
async function measureBeacons(env: Record<string, string>, readers: string[], dir: string, options: InsightsBenchOptions) {
  // Page p99 with and without 200 beacons/s: pages paced at 100/s by load-client.mjs and beacons
  // paced at 200/s by beacon-client.mjs, each in a fresh process (this one holds the data's garbage). The gate runs on
  // a core of its own and both clients on the others (coreSplit), as browsers on other machines would: on 2 shared
  // cores a woken gate or client otherwise waits for whichever of the three runs, and that wait is most of the p99.
  const split = options.beaconSharedCores ? null : coreSplit;
  const server = await startGate(env, split?.server ?? null);
  const pid = server.child.pid!;
  const beaconFile = path.join(dir, "beacons.json");
  fs.writeFileSync(
    beaconFile,
    JSON.stringify(
      readers.slice(0, 500).map((cookie, index) => ({
        path: "/api/busca",
        headers: { cookie, origin: server.url, "content-type": "application/json" },
        body: JSON.stringify({ consulta: `busca ${index % 50}`, resultados: index % 3, aberto: index % 3 ? 1 : null }),
      })),
    ),
  );
  type PageWindow = { p50: number; p99: number; requests: number; non2xx: number; p99Off?: number; p99On?: number; p99ByWindow?: number[] };
  const pageLoad = (seconds: number, env: Record<string, string> = {}) =>
    clientJson<PageWindow>(
      ["scripts/bench/load-client.mjs", `${server.url}/faq`, readers[0]!, "4", String(seconds), "100"],
      env,
      0,
      split?.clients ?? null,
    );
  const beaconLoad = (seconds: number, env: Record<string, string> = {}) =>
    clientJson<{ sent: number; accepted: number; refused: number; failed: number; reqPerSec: number }>(
      ["scripts/bench/beacon-client.mjs", server.url, beaconFile, String(seconds), "200"],
      env,
      options.beaconNice,
      split?.clients ?? null,
    );
  // Warm-up of both paths, as a portal in use has (the first 5 s of beacons on a fresh gate cost more than the
  // rest: the beacon path's compilation, 500 sessions read for the first time, the young generation growing).
  await Promise.all([pageLoad(5), beaconLoad(5)]);
  // Rounds of two runs as long: pages alone, in the same alternating windows (the move between its odd and even windows
  // is the measurement's noise, an A/A run), then pages with beacons in every other BEACON_WINDOW_MS — with and without
  // alternating in one run (load-client.mjs, BENCH_WINDOWS), so the shared machine's drift between two runs is not the
  // figure. One round's move swung from +1.4 % to +42.6 % with the same code (bursts of 8–12 ms p99 in single windows of
  // either kind), so the figure is the median of the rounds' moves, each round printed.
  const rounds: { move: number; noise: number; beaconCpu: number; text: string }[] = [];
  for (let round = 0; round < options.beaconRounds; round++) {
    let cpuBefore = cpuSeconds(pid);
    const quiet = await pageLoad(2 * options.beaconSeconds, { BENCH_WINDOWS: `${Date.now() + 1000}:${BEACON_WINDOW_MS}` });
    const quietCpu = cpuSeconds(pid) - cpuBefore;
    const windows = { BENCH_WINDOWS: `${Date.now() + 1000}:${BEACON_WINDOW_MS}` };
    cpuBefore = cpuSeconds(pid);
    const [mixed, beacons] = await Promise.all([
      pageLoad(2 * options.beaconSeconds, windows),
      beaconLoad(2 * options.beaconSeconds, windows),
    ]);
    // Half the run had beacons: what they added over the run of pages alone (as long; the gate's idle timers cancel out).
    const beaconCpu = (cpuSeconds(pid) - cpuBefore - quietCpu) / beacons.sent;
    const move = mixed.p99On! / mixed.p99Off! - 1;
    const noise = quiet.p99On! / quiet.p99Off! - 1;
    rounds.push({
      move,
      noise,
      beaconCpu,
      text: `rodada ${round + 1}: ${beacons.accepted} beacons aceitos, ${beacons.refused} recusados, ${beacons.failed} falhas; p99 ${mixed.p99Off} ms nas janelas sem beacons, ${mixed.p99On} ms nas com → ${(move * 100).toFixed(1)} %; ruído (só páginas, as mesmas janelas, antes): p99 ${quiet.p99Off} → ${quiet.p99On} ms, ${(noise * 100).toFixed(1)} %; ~${(beaconCpu * 1e6).toFixed(0)} µs de CPU do gate por beacon\n    p99 de cada janela (ms; sem beacons, com, …): ${mixed.p99ByWindow!.join(" · ")}`,
    });
  }
  await stopGate(server.child);
  const move = median(rounds.map((round) => round.move));
  const noise = median(rounds.map((round) => round.noise));
  console.log(
    `\nPáginas a 100/s por ${2 * options.beaconSeconds} s, 200 beacons/s em janelas alternadas de ${BEACON_WINDOW_MS / 1000} s, ${options.beaconRounds} rodadas${split ? `; gate no núcleo ${split.server}, clientes no ${split.clients}` : "; gate e clientes nos mesmos núcleos"}${options.beaconNice ? `; emissor dos beacons com nice ${options.beaconNice}` : ""}:\n  ${rounds.map((round) => round.text).join("\n  ")}\n→ mediana das rodadas: p99 ${(move * 100).toFixed(1)} % ${move <= P99_MOVE_TARGET ? "ok" : "ACIMA"} (meta ≤ +${P99_MOVE_TARGET * 100} %); ruído da medida, mediana: ${(noise * 100).toFixed(1)} %; CPU do gate a mais com os beacons: ~${(median(rounds.map((round) => round.beaconCpu)) * 1e6).toFixed(0)} µs por beacon`,
  );
}
