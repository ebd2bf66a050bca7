/**
 * Scale scenarios of `npm run bench` against a gate whose database holds the seed:scale data:
 * p95 of each audit filter and of the admin user search (sequential requests), and a gated
 * page's p99 at 50 connections just before and while one full CSV export streams, with the
 * server's RSS growth.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
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

async function timedGets(url: string, cookie: string, count: number) {
  const times: number[] = [];
  let body = "";
  for (let index = 0; index < count; index++) {
    const started = performance.now();
    const response = await fetch(url, { headers: { cookie } });
    body = await response.text();
    if (!response.ok) throw new Error(`${url} respondeu ${response.status}: ${body.slice(0, 200)}`);
    times.push(performance.now() - started);
  }
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
}): Promise<ScaleFigures> {
  const { gateUrl, serverPid, samples } = options;
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
      duration: 2,
      headers: { cookie: `b1_session=${options.viewerToken}`, "accept-encoding": "gzip, br" },
    });
  const alone = [await pageLoad(), await pageLoad()];

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
    let out = "";
    client.stdout.on("data", (chunk) => (out += chunk));
    client.on("exit", () => {
      exportDone = true;
      const result = JSON.parse(out || "{}") as { status?: number; rows: number; seconds: number };
      if (result.status !== 200) reject(new Error(`exportação respondeu ${result.status ?? "nada"}`));
      else resolve(result);
    });
  });
  const pages: autocannon.Result[] = [];
  while (!exportDone) pages.push(await pageLoad());
  const { rows: exportRows, seconds: exportSeconds } = await exported;
  clearInterval(sampler);
  // Only the rounds that ran entirely during the export count (the last one ran past its end).
  const during = pages.length > 1 ? pages.slice(0, -1) : pages;
  const pageAlone = {
    reqPerSec: Math.round(alone.reduce((sum, r) => sum + r.requests.average, 0) / alone.length),
    p50: Math.max(...alone.map((r) => r.latency.p50)),
    p99: Math.max(...alone.map((r) => r.latency.p99)),
  };
  const pageDuringExport = {
    reqPerSec: Math.round(during.reduce((sum, r) => sum + r.requests.average, 0) / during.length),
    p50: Math.max(...during.map((r) => r.latency.p50)),
    p99: Math.max(...during.map((r) => r.latency.p99)),
    non2xx: during.reduce((sum, r) => sum + r.non2xx + r.errors, 0),
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
    "página p99 ≤ 20 ms (50 conexões) durante exportação": figures.pageDuringExport.p99 <= 20,
    "RSS cresce < 100 MB na exportação": figures.pageDuringExport.rssGrowthMb < 100,
  };
}
