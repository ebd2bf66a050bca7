/**
 * `npm run bench -- --soak [seconds]` (600 by default): a fresh gate under the mixed load of
 * `npm run loadtest` (sign-ins, page views, trail saves, admin edits, each loop sequential per
 * person) for that long, then left idle; prints its resident memory at start, at the peak, at the
 * end of the load and after the idle time, with the V8 heap beside it (from METRICS_PORT), so the
 * docs/desempenho.md's memory figures and the alarm rule come from what a healthy process does.
 */
import type { Db } from "../../src/lib/server/data/db.ts";
import { createLoadCast, runLoad, summarizeLoad, LOAD_KINDS } from "./load.ts";
import { rssMb, startServer } from "./process.ts";

export interface MemoryPoint {
  rssMb: number;
  heapTotalMb: number | null;
  heapUsedMb: number | null;
}

export interface SoakFigures {
  seconds: number;
  idleSeconds: number;
  reqPerSec: number;
  status5xx: number;
  start: MemoryPoint;
  peakRssMb: number;
  endOfLoad: MemoryPoint;
  afterIdle: MemoryPoint;
  /** RSS every IDLE_SAMPLE_S seconds of the idle time: when the memory comes back. */
  idleRssMb: number[];
  perKind: ReturnType<typeof summarizeLoad>;
}

export interface SoakOptions {
  db: Db;
  env: Record<string, string>;
  nodeFlags: string[];
  port: number;
  metricsPort: number;
  seconds: number;
  idleSeconds: number;
}

const IDLE_SAMPLE_S = 10;

async function heap(metricsPort: number): Promise<{ total: number | null; used: number | null }> {
  try {
    const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    const mb = (name: string) => {
      const value = new RegExp(`^${name} (\\S+)$`, "m").exec(text)?.[1];
      return value === undefined ? null : Math.round(Number(value) / 1048576);
    };
    return { total: mb("nodejs_heap_size_total_bytes"), used: mb("nodejs_heap_size_used_bytes") };
  } catch {
    return { total: null, used: null };
  }
}

export async function benchSoak(options: SoakOptions): Promise<SoakFigures> {
  const gate = await startServer(
    process.execPath,
    [...options.nodeFlags, "dist/gate/main.mjs"],
    {
      ...options.env,
      PORT: String(options.port),
      PUBLIC_URL: `http://127.0.0.1:${options.port}`,
      METRICS_PORT: String(options.metricsPort),
    },
    /no ar em (http:\/\/[^\s]+)/,
  );
  const pid = gate.child.pid!;
  const point = async (): Promise<MemoryPoint> => {
    const { total, used } = await heap(options.metricsPort);
    return { rssMb: rssMb(pid), heapTotalMb: total, heapUsedMb: used };
  };
  try {
    const start = await point();
    const cast = await createLoadCast(options.db, 8, 4);
    let peakRssMb = start.rssMb;
    const sampler = setInterval(() => (peakRssMb = Math.max(peakRssMb, rssMb(pid))), 250);
    const result = await runLoad({ baseUrl: gate.match[1]!, cast, durationMs: options.seconds * 1000 });
    const endOfLoad = await point();
    clearInterval(sampler);
    const idleRssMb: number[] = [];
    for (let waited = 0; waited < options.idleSeconds; waited += IDLE_SAMPLE_S) {
      await new Promise((resolve) => setTimeout(resolve, Math.min(IDLE_SAMPLE_S, options.idleSeconds - waited) * 1000));
      idleRssMb.push(rssMb(pid));
    }
    const afterIdle = await point();
    const requests = LOAD_KINDS.reduce((sum, kind) => sum + result.stats[kind].requests, 0);
    return {
      seconds: options.seconds,
      idleSeconds: options.idleSeconds,
      reqPerSec: Math.round(requests / result.seconds),
      status5xx: LOAD_KINDS.reduce((sum, kind) => sum + result.stats[kind].status5xx, 0),
      start,
      peakRssMb,
      endOfLoad,
      afterIdle,
      idleRssMb,
      perKind: summarizeLoad(result),
    };
  } finally {
    gate.child.kill("SIGTERM");
  }
}
