/**
 * `npm run bench -- --memory [seconds]` (60 by default): does the memory come back after load?
 * A fresh gate on a temporary SQLite database with --audit-rows audit rows (300,000 by default) is
 * measured once it has served a page, an API request and an audit page (its reading thread
 * started: "fresh"), then put under the mixed load of
 * `npm run loadtest` for that long with --exports full CSV exports of the audit log (2 by default)
 * at the start, then left idle; RSS, its anonymous part, the V8 heap and the memory outside it
 * (external: buffers, better-sqlite3 is not counted there) are printed at each point, for each
 * allocator setting in --arenas (default "default,2+mmap"; see allocatorEnv),
 * --repeat times each (default 2; two noisy cores give ranges, not figures). The ratio idle / fresh
 * is what docs/desempenho.md's figure is about (target ≤ 1.5).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { closeDatabase, openDatabase } from "../../src/lib/server/data/db.ts";
import { seedDatabase } from "../../src/lib/server/data/seed.ts";
import { freePort } from "../pg-cluster.mjs";
import { createLoadCast, runLoad, LOAD_KINDS } from "./load.ts";
import { gateNodeFlags, loadAverage, runClient, startServer } from "./process.ts";
import { insertAuditRows } from "./scale-data.ts";

export interface MemoryBenchOptions {
  seconds: number;
  idleSeconds: number;
  auditRows: number;
  exports: number;
  arenas: string[];
  repeat: number;
}

interface Point {
  rss: number;
  anon: number;
  /** Anonymous RSS by owner (MB): glibc malloc (the brk heap and the 64 MB-aligned arena heaps of other threads), the rest (V8's pages, stacks). */
  malloc: number;
  other: number;
  heapTotal: number | null;
  external: number | null;
}

/**
 * glibc malloc settings of a variant: "default", or parts joined by "+": a number (MALLOC_ARENA_MAX),
 * "mmap" (MALLOC_MMAP_THRESHOLD_=131072: blocks from 128 KB always mmap'd, so returned when freed;
 * without it the threshold grows to the largest block freed, up to 32 MB, and an Argon2 hash's
 * 19 MB lands in an arena that keeps it), "trim" (MALLOC_TRIM_THRESHOLD_=131072).
 */
export function allocatorEnv(variant: string): Record<string, string> {
  const env: Record<string, string> = {};
  if (variant === "default") return env;
  for (const part of variant.split("+")) {
    if (/^\d+$/.test(part)) env.MALLOC_ARENA_MAX = part;
    else if (part === "mmap") env.MALLOC_MMAP_THRESHOLD_ = "131072";
    else if (part === "trim") env.MALLOC_TRIM_THRESHOLD_ = "131072";
    else throw new Error(`--arenas: variante desconhecida "${part}" (use default, um número, mmap, trim, unidos por +)`);
  }
  return env;
}

const mbOf = (kb: string | undefined) => Math.round(Number(kb ?? 0) / 1024);

/** RSS and its anonymous part (MB) of `pid`, with the heap and external memory its /metrics reports. */
async function point(pid: number, metricsPort: number): Promise<Point> {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  let heapTotal: number | null = null;
  let external: number | null = null;
  try {
    const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    const mb = (name: string) => {
      const value = new RegExp(`^${name} (\\S+)$`, "m").exec(text)?.[1];
      return value === undefined ? null : Math.round(Number(value) / 1048576);
    };
    heapTotal = mb("nodejs_heap_size_total_bytes");
    external = mb("nodejs_external_memory_bytes");
  } catch {
    // Metrics unreachable: RSS alone.
  }
  return {
    rss: mbOf(/VmRSS:\s+(\d+)/.exec(status)?.[1]),
    anon: mbOf(/RssAnon:\s+(\d+)/.exec(status)?.[1]),
    ...anonymousByOwner(pid),
    heapTotal,
    external,
  };
}

/**
 * Anonymous resident memory split by who mapped it, from /proc/<pid>/smaps: `[heap]` and regions
 * starting on a 64 MB boundary (glibc's per-thread arenas reserve 64 MB aligned heaps) are malloc's;
 * the rest is V8's heap pages (256 KB each, mapped by V8 itself), thread stacks and the like.
 */
function anonymousByOwner(pid: number): { malloc: number; other: number } {
  let malloc = 0;
  let other = 0;
  let owner: "malloc" | "other" | null = null;
  for (const line of fs.readFileSync(`/proc/${pid}/smaps`, "utf8").split("\n")) {
    const region = /^([0-9a-f]+)-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (region) {
      const name = region[2]!.trim();
      const start = BigInt(`0x${region[1]}`);
      owner = name === "[heap]" || (name === "" && start % 0x4000000n === 0n) ? "malloc" : name === "" ? "other" : null;
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss && owner === "malloc") malloc += Number(rss[1]);
    else if (rss && owner === "other") other += Number(rss[1]);
  }
  return { malloc: Math.round(malloc / 1024), other: Math.round(other / 1024) };
}

/** Threads of the process now (the audit and reading workers show here). */
const threads = (pid: number) => Number(/Threads:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);

async function oneRun(dbPath: string, options: MemoryBenchOptions, arena: string) {
  const port = await freePort();
  const metricsPort = await freePort();
  const env: Record<string, string> = {
    HOST: "127.0.0.1",
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    METRICS_PORT: String(metricsPort),
    DATABASE_PATH: dbPath,
    AUTH_ALLOWED_DOMAINS: "b1.example.com",
    RATE_LIMIT_MULTIPLIER: "1000000",
    LOG_LEVEL: "warn",
    ...allocatorEnv(arena),
  };
  const db = await openDatabase(dbPath);
  const cast = await createLoadCast(db, 8, 4);
  await closeDatabase(db);
  const gate = await startServer(process.execPath, [...gateNodeFlags(), "dist/gate/main.mjs"], env, /no ar em (http:\/\/[^\s]+)/);
  const pid = gate.child.pid!;
  const baseUrl = gate.match[1]!;
  try {
    const admin = { cookie: `b1_session=${cast.admin.token}` };
    // Fresh: every kind of request served once, the audit page's reading thread started.
    for (const page of ["/faq", "/api/trail", "/audit-logs", "/api/audit-logs?limit=10"]) {
      await (await fetch(baseUrl + page, { headers: admin })).arrayBuffer();
    }
    const fresh = await point(pid, metricsPort);
    let peak = fresh.rss;
    const sampler = setInterval(() => {
      try {
        peak = Math.max(peak, mbOf(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))?.[1]));
      } catch {
        // Ended.
      }
    }, 250);
    const exports = Array.from({ length: options.exports }, () =>
      runClient<{ status: number; rows: number; seconds: number }>("scripts/bench/export-client.mjs", [
        `${baseUrl}/api/audit-logs/export.csv`,
        admin.cookie,
      ]),
    );
    const load = await runLoad({ baseUrl, cast, durationMs: options.seconds * 1000 });
    const exported = await Promise.all(exports);
    const endOfLoad = await point(pid, metricsPort);
    const threadsAtEnd = threads(pid);
    clearInterval(sampler);
    const idle: { after: number; point: Point }[] = [];
    const marks = [15, 60, options.idleSeconds].filter((mark, index, all) => mark <= options.idleSeconds && all.indexOf(mark) === index);
    let waited = 0;
    for (const mark of marks) {
      await new Promise((resolve) => setTimeout(resolve, (mark - waited) * 1000));
      waited = mark;
      idle.push({ after: mark, point: await point(pid, metricsPort) });
    }
    const requests = LOAD_KINDS.reduce((sum, kind) => sum + load.stats[kind].requests, 0);
    const last = idle.at(-1)?.point ?? endOfLoad;
    return {
      arena,
      reqPerSec: Math.round(requests / load.seconds),
      exports: exported.map((run) => `${run.status} ${run.rows} linhas em ${run.seconds.toFixed(0)} s`).join("; "),
      fresh,
      peak,
      endOfLoad,
      threadsAtEnd,
      idle,
      ratio: Math.round((last.rss / fresh.rss) * 100) / 100,
    };
  } finally {
    gate.child.kill("SIGTERM");
    await new Promise((resolve) => gate.child.once("exit", resolve));
  }
}

export async function benchMemory(options: MemoryBenchOptions): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "b1-bench-memoria-"));
  const template = path.join(dir, "modelo.sqlite");
  try {
    const db = await openDatabase(template, { migrate: true });
    await seedDatabase(db);
    await insertAuditRows(db, options.auditRows, []);
    await closeDatabase(db);
    console.log(
      `Memória: ${os.cpus().length} núcleos, Node ${process.version}; ${options.auditRows} linhas de auditoria; carga ${options.seconds} s ` +
        `+ ${options.exports} exportações CSV completas; ${options.idleSeconds} s parado; carga média no início: ${loadAverage()}`,
    );
    const fmt = (p: Point) =>
      `RSS ${p.rss} (anônima ${p.anon}: malloc ${p.malloc}, V8 e outras ${p.other}; heap do V8 ${p.heapTotal ?? "?"}, externa ${p.external ?? "?"})`;
    for (let round = 1; round <= options.repeat; round++) {
      for (const arena of options.arenas) {
        // Each run starts from the same database, so the runs compare.
        const dbPath = path.join(dir, `rodada-${round}-${arena}.sqlite`);
        fs.copyFileSync(template, dbPath);
        const run = await oneRun(dbPath, options, arena);
        fs.rmSync(dbPath, { force: true });
        for (const suffix of ["-wal", "-shm"]) fs.rmSync(dbPath + suffix, { force: true });
        console.log(
          `memória [malloc ${arena}, rodada ${round}]: ${run.reqPerSec} req/s; exportações: ${run.exports}; ` +
            `início ${fmt(run.fresh)}; pico RSS ${run.peak}; fim da carga ${fmt(run.endOfLoad)}, ${run.threadsAtEnd} threads; ` +
            run.idle.map(({ after, point: p }) => `${after} s parado ${fmt(p)}`).join("; ") +
            `; parado/início ${run.ratio}× (carga média ${loadAverage()})`,
        );
      }
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
