/**
 * Scale scenarios of `npm run bench` against a gate whose database holds the seed:scale data:
 * p95 of each audit filter and of the admin user search (sequential requests), and a gated
 * page's p99 at 50 connections just before and while one full CSV export streams, with the
 * server's RSS growth. The page load runs twice in each phase: at saturation (each connection
 * sends its next request as soon as the last is answered, so latency is 50 ÷ throughput) and at a
 * fixed 1,000 req/s over the same 50 connections (latency is then what a reader waits).
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import { SESSION_CACHE_MAX } from "../../src/lib/server/sessions/cache.ts";

/** A gated page's load over one window, from scripts/bench/load-client.mjs. */
export interface PageLoad {
  reqPerSec: number;
  p50: number;
  p99: number;
  non2xx: number;
}

/** Page load during the export: false in `windowInsideExport` when the export ended first (small --audit-rows). */
export type PageLoadDuringExport = PageLoad & { windowInsideExport: boolean };

/**
 * The rate of the paced page load (requests evenly spaced, latency counted from when each was due):
 * several times what a 10,000-person company's portal sees at its busiest.
 */
export const PAGE_RATE = 1000;

export interface ScaleFigures {
  engine: "sqlite" | "postgres";
  filters: Record<string, { p50: number; p95: number; rows: number }>;
  adminSearch: { path: string; p50: number; p95: number; bytes: number };
  /** The access matrix (pages × roles) and the admin role list, which read no per-user rows. */
  adminPages: Record<string, { p50: number; p95: number; bytes: number }>;
  /** The gate's resident memory when the scenarios began and after them (the export's peak is in `export`). */
  gateMemory: { startMb: number; endMb: number; sessionCacheMax: number };
  /** The same loads just before the export, for comparison. */
  pageAlone: { saturated: PageLoad; paced: PageLoad };
  pageDuringExport: { saturated: PageLoadDuringExport; paced: PageLoadDuringExport };
  /** complete: false when --export-seconds stopped the reading before the end. */
  export: { rows: number; seconds: number; rssGrowthMb: number; complete: boolean };
}

export const AUDIT_FILTERS: Record<string, string> = {
  "sem filtro": "",
  "ação (logout)": "action=user_logout",
  "resultado (falha)": "result=failure",
  "usuário (pessoa 9999)": "user=pessoa%209999",
  "usuário inexistente": "user=naoexiste",
  "período (1 mês)": "from=2026-03-01&to=2026-03-31",
  "ação + resultado": "action=user_login_success&result=blocked",
};

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! * 10) / 10;
};

/** `count` sequential GETs, timed in a fresh client process (scripts/bench/timed-client.mjs). */
async function timedGets(url: string, cookie: string, count: number) {
  const output = await new Promise<string>((resolve, reject) => {
    const client = spawn(process.execPath, ["scripts/bench/timed-client.mjs", url, cookie, String(count)], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    client.stdout.on("data", (chunk) => (out += chunk));
    client.on("error", reject);
    client.on("exit", () => resolve(out));
  });
  const { times, status, body } = JSON.parse(output || "{}") as { times: number[]; status: number; body: string };
  if (status !== 200) throw new Error(`${url} respondeu ${status}: ${String(body).slice(0, 200)}`);
  return { p50: percentile(times, 50), p95: percentile(times, 95), body };
}

/** Resident memory of a process in MB (Linux /proc). */
function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

export async function benchScale(options: {
  gateUrl: string;
  serverPid: number;
  engine: ScaleFigures["engine"];
  adminToken: string;
  viewerToken: string;
  samples: number;
  /** Length of the page-load windows, alone and during the export. */
  seconds: number;
  /** Stop reading the export after this long (the whole export when absent). */
  exportSeconds?: number;
}): Promise<ScaleFigures> {
  const { gateUrl, serverPid, samples, seconds } = options;
  const admin = `b1_session=${options.adminToken}`;
  const startMb = Math.round(rssMb(serverPid));
  const filters: ScaleFigures["filters"] = {};
  for (const [name, query] of Object.entries(AUDIT_FILTERS)) {
    await timedGets(`${gateUrl}/api/audit-logs?${query}`, admin, 3); // warm-up
    const run = await timedGets(`${gateUrl}/api/audit-logs?${query}`, admin, samples);
    filters[name] = { p50: run.p50, p95: run.p95, rows: (JSON.parse(run.body) as { rows: unknown[] }).rows.length };
  }

  const searchPath = "/api/admin/users?q=pessoa%209999";
  await timedGets(gateUrl + searchPath, admin, 3);
  const search = await timedGets(gateUrl + searchPath, admin, samples);
  const adminSearch = { path: searchPath, p50: search.p50, p95: search.p95, bytes: Buffer.byteLength(search.body) };

  const adminPages: ScaleFigures["adminPages"] = {};
  for (const pagePath of ["/api/admin/access-matrix", "/api/admin/roles"]) {
    await timedGets(gateUrl + pagePath, admin, 3);
    const run = await timedGets(gateUrl + pagePath, admin, samples);
    adminPages[pagePath] = { p50: run.p50, p95: run.p95, bytes: Buffer.byteLength(run.body) };
  }

  const pageLoad = (rate?: number) => loadWindow(`${gateUrl}/faq`, `b1_session=${options.viewerToken}`, seconds, rate);
  await pageLoad(); // warm-up
  const pageAlone = { saturated: await pageLoad(), paced: await pageLoad(PAGE_RATE) };

  // One full export read as fast as the client can (in its own process, so reading it never
  // stalls the load generator), while 50 connections ask for a gated page.
  const rssBefore = rssMb(serverPid);
  let rssPeak = rssBefore;
  const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, rssMb(serverPid))), 100);
  let exportDone = false;
  const exported = new Promise<{ rows: number; seconds: number; complete: boolean }>((resolve, reject) => {
    const exportArgs = ["scripts/bench/export-client.mjs", `${gateUrl}/api/audit-logs/export.csv`, admin];
    if (options.exportSeconds) exportArgs.push(String(options.exportSeconds));
    const client = spawn(process.execPath, exportArgs, {
      stdio: ["ignore", "pipe", "inherit"],
    });
    // It stands in for a client on another machine: lowest priority, so it takes no CPU from the server.
    if (client.pid) os.setPriority(client.pid, 19);
    let out = "";
    client.stdout.on("data", (chunk) => (out += chunk));
    client.on("exit", () => {
      exportDone = true;
      const result = JSON.parse(out || "{}") as { status?: number; rows: number; seconds: number; complete: boolean };
      if (result.status !== 200) reject(new Error(`exportação respondeu ${result.status ?? "nada"}`));
      else resolve(result);
    });
  });
  // Windows of the same length as those alone, so the p99 are over comparable samples.
  const duringSaturated = await pageLoad();
  const saturatedInside = !exportDone;
  const duringPaced = await pageLoad(PAGE_RATE);
  const pacedInside = !exportDone;
  const { rows, seconds: exportSeconds, complete } = await exported;
  clearInterval(sampler);
  return {
    engine: options.engine,
    filters,
    adminSearch,
    adminPages,
    gateMemory: { startMb, endMb: Math.round(rssMb(serverPid)), sessionCacheMax: SESSION_CACHE_MAX },
    pageAlone,
    pageDuringExport: {
      saturated: { ...duringSaturated, windowInsideExport: saturatedInside },
      paced: { ...duringPaced, windowInsideExport: pacedInside },
    },
    export: { rows, seconds: Math.round(exportSeconds * 10) / 10, rssGrowthMb: Math.round(rssPeak - rssBefore), complete },
  };
}

/** One page-load window, run by autocannon in a fresh process (scripts/bench/load-client.mjs). */
async function loadWindow(url: string, cookie: string, seconds: number, rate?: number): Promise<PageLoad> {
  const args = ["scripts/bench/load-client.mjs", url, cookie, "50", String(seconds), ...(rate ? [String(rate)] : [])];
  const output = await new Promise<string>((resolve, reject) => {
    const client = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    client.stdout.on("data", (chunk) => (out += chunk));
    client.on("error", reject);
    client.on("exit", () => resolve(out));
  });
  const { reqPerSec, p50, p99, non2xx } = JSON.parse(output) as PageLoad;
  return { reqPerSec, p50, p99, non2xx };
}

/** One figure of the scale report: what was measured, its target, and whether it was met. */
export interface ScaleRow {
  figure: string;
  value: string;
  target: string;
  ok: boolean;
}

/** Each scale figure with its target and yes/no; `seedSeconds` (null when not seeded here) against `seedLimit`. */
export function scaleReport(figures: ScaleFigures, seedSeconds: number | null, seedLimit: number): ScaleRow[] {
  const rows: ScaleRow[] = [];
  if (seedSeconds !== null)
    rows.push({
      figure: `seed:scale (${figures.engine})`,
      value: `${seedSeconds} s`,
      target: `< ${seedLimit} s`,
      ok: seedSeconds < seedLimit,
    });
  for (const [name, f] of Object.entries(figures.filters))
    rows.push({
      figure: name === "sem filtro" ? "auditoria: primeira página (sem filtro)" : `auditoria: filtro ${name}`,
      value: `p95 ${f.p95} ms`,
      target: "≤ 50 ms",
      ok: f.p95 <= 50,
    });
  rows.push({
    figure: "busca de usuários (admin)",
    value: `p95 ${figures.adminSearch.p95} ms`,
    target: "≤ 50 ms",
    ok: figures.adminSearch.p95 <= 50,
  });
  for (const [pagePath, f] of Object.entries(figures.adminPages))
    rows.push({
      figure: pagePath.endsWith("roles") ? "lista de perfis" : "matriz de acesso",
      value: `p95 ${f.p95} ms (${f.bytes} B)`,
      target: "≤ 100 ms",
      ok: f.p95 <= 100,
    });
  rows.push({
    figure: `exportação CSV (${figures.export.rows} linhas, ${figures.export.seconds} s${figures.export.complete ? "" : ", interrompida"})`,
    value: `RSS +${figures.export.rssGrowthMb} MB`,
    target: "< 100 MB",
    ok: figures.export.rssGrowthMb < 100,
  });
  rows.push({
    figure: `memória do gate (cache de sessões ≤ ${figures.gateMemory.sessionCacheMax}; busca sem cópia dos usuários)`,
    value: `RSS ${figures.gateMemory.startMb} → ${figures.gateMemory.endMb} MB`,
    target: "< 300 MB",
    ok: figures.gateMemory.endMb < 300,
  });
  rows.push({
    figure: `página p99 durante a exportação (50 conexões, ${PAGE_RATE} req/s)`,
    value: `${figures.pageDuringExport.paced.p99} ms`,
    target: "≤ 20 ms",
    ok: within(figures.pageDuringExport.paced),
  });
  return rows;
}

/** yes/no per target of the scale scenarios. */
export function scaleTargets(figures: ScaleFigures, seedSeconds: number | null = null, seedLimit = 300): Record<string, boolean> {
  return Object.fromEntries(scaleReport(figures, seedSeconds, seedLimit).map((row) => [`${row.figure} ${row.target}`, row.ok]));
}

const within = (load: PageLoadDuringExport) => load.windowInsideExport && load.non2xx === 0 && load.p99 <= 20;
