/**
 * Scale scenarios of `npm run bench` against a gate whose database holds the seed:scale data:
 * p95 of each audit filter and of the admin user search (sequential requests), and a gated
 * page's p99 at 50 connections just before and while one full CSV export streams, with the
 * server's RSS growth.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import autocannon from "autocannon";

export interface ScaleFigures {
  filters: Record<string, { p50: number; p95: number; rows: number }>;
  adminSearch: { path: string; p50: number; p95: number; bytes: number };
  /** The same load just before the export, for comparison. */
  pageAlone: { reqPerSec: number; p50: number; p99: number };
  pageDuringExport: {
    reqPerSec: number;
    p50: number;
    p99: number;
    non2xx: number;
    windowInsideExport: boolean;
    exportRows: number;
    exportSeconds: number;
    rssGrowthMb: number;
  };
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

/** `count` sequential GETs, timed in a fresh client process (scripts/bench-timed-client.mjs). */
async function timedGets(url: string, cookie: string, count: number) {
  const output = await new Promise<string>((resolve, reject) => {
    const client = spawn(process.execPath, ["scripts/bench-timed-client.mjs", url, cookie, String(count)], {
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
  adminToken: string;
  viewerToken: string;
  samples: number;
  /** Length of the page-load windows, alone and during the export. */
  seconds: number;
}): Promise<ScaleFigures> {
  const { gateUrl, serverPid, samples, seconds } = options;
  const admin = `b1_session=${options.adminToken}`;
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

  const pageLoad = () =>
    autocannon({
      url: `${gateUrl}/faq`,
      connections: 50,
      duration: seconds,
      headers: { cookie: `b1_session=${options.viewerToken}`, "accept-encoding": "gzip, br" },
    });
  await pageLoad(); // warm-up
  const alone = await pageLoad();

  // One full export read as fast as the client can (in its own process, so reading it never
  // stalls this one's load generator), while 50 connections ask for a gated page.
  const rssBefore = rssMb(serverPid);
  let rssPeak = rssBefore;
  const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, rssMb(serverPid))), 100);
  let exportDone = false;
  const exported = new Promise<{ rows: number; seconds: number }>((resolve, reject) => {
    const client = spawn(process.execPath, ["scripts/bench-export-client.mjs", `${gateUrl}/api/audit-logs/export.csv`, admin], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    // It stands in for a client on another machine: lowest priority, so it takes no CPU from the server.
    if (client.pid) os.setPriority(client.pid, 19);
    let out = "";
    client.stdout.on("data", (chunk) => (out += chunk));
    client.on("exit", () => {
      exportDone = true;
      const result = JSON.parse(out || "{}") as { status?: number; rows: number; seconds: number };
      if (result.status !== 200) reject(new Error(`exportação respondeu ${result.status ?? "nada"}`));
      else resolve(result);
    });
  });
  // One window of the same length as the one alone, so both p99 are over comparable samples.
  const during = await pageLoad();
  const windowInsideExport = !exportDone;
  const { rows: exportRows, seconds: exportSeconds } = await exported;
  clearInterval(sampler);
  const pageAlone = { reqPerSec: Math.round(alone.requests.average), p50: alone.latency.p50, p99: alone.latency.p99 };
  const pageDuringExport = {
    reqPerSec: Math.round(during.requests.average),
    p50: during.latency.p50,
    p99: during.latency.p99,
    non2xx: during.non2xx + during.errors,
    /** False when the export ended before the window did (small --audit-rows): the p99 then is not "during". */
    windowInsideExport,
    exportRows,
    exportSeconds: Math.round(exportSeconds * 10) / 10,
    rssGrowthMb: Math.round(rssPeak - rssBefore),
  };
  return { filters, adminSearch, pageAlone, pageDuringExport };
}

/** yes/no per target of the scale scenarios. */
export function scaleTargets(figures: ScaleFigures): Record<string, boolean> {
  return {
    "cada filtro de auditoria ≤ 50 ms p95": Object.values(figures.filters).every((f) => f.p95 <= 50),
    "busca de usuários (admin) ≤ 50 ms p95": figures.adminSearch.p95 <= 50,
    "página p99 ≤ 20 ms (50 conexões) durante exportação":
      figures.pageDuringExport.windowInsideExport && figures.pageDuringExport.p99 <= 20,
    "RSS cresce < 100 MB na exportação": figures.pageDuringExport.rssGrowthMb < 100,
  };
}
