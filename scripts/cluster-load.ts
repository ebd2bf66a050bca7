/**
 * The reference cluster's scenarios under the mixed load of `npm run chaos` (scripts/bench/load.ts),
 * each printing its figures and targets: rolling upgrade (0 failed requests), kill -9 of the
 * PostgreSQL primary, kill -9 of the primary's whole Patroni node (standby promoted, gates 503 with
 * Retry-After meanwhile, never a 500 or an exit, 0 acknowledged writes lost, gap ≤ 15 s), and 12
 * instances × DATABASE_POOL_MAX=10 through PgBouncer on PostgreSQL's max_connections=50.
 * `npm run chaos -- --cluster` runs them all (`tsx scripts/cluster-load.ts`), starting and stopping the cluster.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { closeDatabase, connectDatabase, type Db } from "../src/lib/server/data/db.ts";
import { createLoadCast, runLoad, verifyLoad, type LoadCast, type LoadResult } from "./bench/load.ts";
import {
  alive,
  DATABASE_URL,
  down,
  HTTP_URL,
  NODES,
  patroniMembers,
  pidOf,
  PORTS,
  roll,
  ROOT,
  startGateProcess,
  stopComponent,
  up,
  restartPatroni,
} from "./cluster.ts";

/** Failed requests: 5xx and network errors, except those cut by the load's own stop (still in flight then). */
function failed(result: LoadResult, aborted = 0): number {
  return Object.values(result.stats).reduce((sum, stat) => sum + stat.status5xx + stat.networkErrors, 0) - aborted;
}

/** The mixed load through HAProxy until `stop()`; failures by kind and cause, the stop's own aborts apart. */
function startLoad(cast: LoadCast, onResponse?: (kind: string, response: Response, body: string) => void) {
  const controller = new AbortController();
  const failures = new Map<string, number>();
  let aborted = 0;
  const load = runLoad({
    baseUrl: HTTP_URL,
    cast,
    durationMs: 600_000,
    signal: controller.signal,
    onResponse,
    onFailure: (failure) => {
      if (controller.signal.aborted && /aborted/i.test(failure.what)) aborted++;
      else failures.set(`${failure.kind} ${failure.what}`, (failures.get(`${failure.kind} ${failure.what}`) ?? 0) + 1);
    },
  });
  return {
    stop: async () => {
      controller.abort();
      const result = await load;
      return { result, failed: failed(result, aborted), failures: Object.fromEntries(failures) };
    },
  };
}

/** What is wrong with an answer during a fault: anything but a 503 with Retry-After among the 5xx. */
function checkAnswer(problems: Map<string, number>) {
  return (_kind: string, response: Response, body: string) => {
    if (response.status < 500) return;
    let problem: string | null = null;
    if (response.status !== 503) problem = `${response.status}`;
    else if (!/^\d+$/.test(response.headers.get("retry-after") ?? "")) problem = `503 sem Retry-After: ${body.slice(0, 60)}`;
    if (problem) problems.set(problem, (problems.get(problem) ?? 0) + 1);
  };
}

async function withDb<T>(work: (db: Db) => Promise<T>): Promise<T> {
  const db = connectDatabase(DATABASE_URL);
  try {
    return await work(db);
  } finally {
    await closeDatabase(db);
  }
}

/** Verifies acknowledged writes, retrying while the database is still settling after a failover. */
async function verifyAfter(db: Db, cast: LoadCast, result: LoadResult): Promise<string[]> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await verifyLoad(db, cast, result);
    } catch (error) {
      if (attempt >= 30) throw error;
      await delay(1_000);
    }
  }
}

function gateExits(): string[] {
  const count = Number(fs.readFileSync(path.join(ROOT, "run", "instances"), "utf8"));
  return Array.from({ length: count }, (_, index) => `gate${index + 1}`).filter((name) => !alive(pidOf(name)));
}

export async function rollUnderLoad(minSeconds: number) {
  return withDb(async (db) => {
    const cast = await createLoadCast(db, 4, 3);
    const load = startLoad(cast);
    const began = performance.now();
    await delay(2_000);
    await roll((text) => console.log(`  ${text}`));
    const left = minSeconds * 1000 - (performance.now() - began);
    if (left > 0) await delay(left);
    const { result, failed: failedRequests, failures } = await load.stop();
    const requests = Object.values(result.stats).reduce((sum, stat) => sum + stat.requests, 0);
    return {
      scenario: "troca das instâncias",
      requests,
      failed: failedRequests,
      failures,
      lost: (await verifyAfter(db, cast, result)).length,
    };
  });
}

/**
 * Writes (PUT /api/trail through HAProxy) every 100 ms from `killedAt` on; resolves with the
 * seconds from the kill to the first write acknowledged after the last refused one.
 */
async function writeGap(
  token: string,
  killedAt: () => number | null,
  signal: AbortSignal,
): Promise<{ gapSeconds: number; refused: number }> {
  let refused = 0;
  let lastRefusedAt: number | null = null;
  let firstOkAfter: number | null = null;
  let sequence = 0;
  while (!signal.aborted) {
    const at = performance.now();
    const ok = await fetch(`${HTTP_URL}/api/trail`, {
      method: "PUT",
      headers: { cookie: `b1_session=${token}`, origin: HTTP_URL, "content-type": "application/json" },
      body: JSON.stringify({ completed: [], answers: {}, projectName: `sonda ${++sequence}`, updatedAt: Date.now() }),
      signal: AbortSignal.timeout(15_000),
    }).then(
      async (response) => {
        await response.arrayBuffer();
        return response.status === 200;
      },
      () => false,
    );
    const killed = killedAt();
    if (killed !== null && at >= killed) {
      if (!ok) {
        refused++;
        lastRefusedAt = performance.now();
        firstOkAfter = null;
      } else if (firstOkAfter === null) firstOkAfter = performance.now();
    }
    await delay(100);
  }
  const killed = killedAt()!;
  if (lastRefusedAt === null) return { gapSeconds: 0, refused };
  return { gapSeconds: Math.round(((firstOkAfter ?? performance.now()) - killed) / 100) / 10, refused };
}

/** The leader's node index, from Patroni. */
async function primaryIndex(): Promise<number> {
  const leader = (await patroniMembers()).find((member) => member.role === "leader");
  if (!leader) throw new Error("nenhum primário no Patroni");
  return NODES.indexOf(leader.name as (typeof NODES)[number]);
}

function postmasterPid(index: number): number {
  return Number(fs.readFileSync(path.join(ROOT, NODES[index]!, "postmaster.pid"), "utf8").split("\n")[0]);
}

export async function failover(kind: "postgres" | "node") {
  return withDb(async (db) => {
    const cast = await createLoadCast(db, 4, 3);
    const prober = await createLoadCast(db, 1, 0);
    const problems = new Map<string, number>();
    const load = startLoad(cast, checkAnswer(problems));
    const probing = new AbortController();
    let killedAt: number | null = null;
    const gap = writeGap(prober.people[0]!.token, () => killedAt, probing.signal);
    await delay(3_000);
    const index = await primaryIndex();
    const node = NODES[index]!;
    const postmaster = postmasterPid(index);
    killedAt = performance.now();
    if (kind === "node") process.kill(pidOf(`patroni-${node}`)!, "SIGKILL");
    process.kill(postmaster, "SIGKILL");
    // Until writes are acknowledged again, then 3 s more.
    await waitForWrites(prober.people[0]!.token, 60_000);
    await delay(3_000);
    probing.abort();
    const { result, failed: failedRequests } = await load.stop();
    const { gapSeconds, refused } = await gap;
    const newPrimary = (await patroniMembers()).find((member) => member.role === "leader")?.name ?? "nenhum";
    const figures = {
      scenario: kind === "node" ? `nó inteiro do primário (${node}) morto` : `PostgreSQL primário (${node}) morto`,
      newPrimary,
      gapSeconds,
      refusedWrites: refused,
      failed: failedRequests,
      wrong5xx: Object.fromEntries(problems),
      exits: gateExits(),
      lost: (await verifyAfter(db, cast, result)).length,
    };
    if (kind === "node") {
      // The node comes back as a standby (pg_rewind) for the next scenario.
      await stopComponent(`patroni-${node}`);
      await restartPatroni(index);
    }
    return figures;
  });
}

async function waitForWrites(token: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ok = await fetch(`${HTTP_URL}/api/trail`, {
      method: "PUT",
      headers: { cookie: `b1_session=${token}`, origin: HTTP_URL, "content-type": "application/json" },
      body: JSON.stringify({ completed: [], answers: {}, projectName: "espera", updatedAt: Date.now() }),
      signal: AbortSignal.timeout(15_000),
    }).then(
      (response) => response.status === 200,
      () => false,
    );
    if (ok) return;
    if (Date.now() > deadline) throw new Error("as gravações não voltaram em 60 s");
    await delay(200);
  }
}

/** 12 instances × DATABASE_POOL_MAX=10 (120 client connections) through PgBouncer on max_connections=50, each under load. */
export async function twelveInstances(seconds: number) {
  const extra = Array.from({ length: 9 }, (_, offset) => 3 + offset);
  for (const index of extra) await startGateProcess(index);
  try {
    return await withDb(async (db) => {
      const casts = await Promise.all(Array.from({ length: 12 }, () => createLoadCast(db, 1, 1)));
      const results = await Promise.all(
        casts.map((cast, index) => runLoad({ baseUrl: `http://127.0.0.1:${PORTS.gate(index)}`, cast, durationMs: seconds * 1000 })),
      );
      const requests = results.reduce((sum, result) => sum + Object.values(result.stats).reduce((n, stat) => n + stat.requests, 0), 0);
      const lost = (await Promise.all(casts.map((cast, index) => verifyLoad(db, cast, results[index]!)))).flat().length;
      const logs = fs.readdirSync(path.join(ROOT, "logs")).map((file) => fs.readFileSync(path.join(ROOT, "logs", file), "utf8"));
      return {
        scenario: "12 instâncias × DATABASE_POOL_MAX=10 pelo PgBouncer, max_connections=50",
        requests,
        failed: results.reduce((sum, result) => sum + failed(result), 0),
        tooManyClients: logs.reduce((sum, text) => sum + (text.match(/too many clients|sorry, too many/gi)?.length ?? 0), 0),
        lost,
      };
    });
  } finally {
    for (const index of extra) await stopComponent(`gate${index + 1}`);
  }
}

async function main(): Promise<void> {
  // `--scenario primary|node|twelve`: one scenario on a cluster already up (npm run cluster -- up).
  const only = process.argv.indexOf("--scenario");
  if (only !== -1) {
    const name = process.argv[only + 1];
    const result =
      name === "primary"
        ? await failover("postgres")
        : name === "node"
          ? await failover("node")
          : name === "twelve"
            ? await twelveInstances(20)
            : null;
    console.log(result ? JSON.stringify(result) : "uso: --scenario primary|node|twelve");
    return;
  }
  const load = os
    .loadavg()
    .map((value) => value.toFixed(1))
    .join(" ");
  console.log(`cluster de referência (carga média antes: ${load})`);
  await up(3);
  const figures: Record<string, unknown>[] = [];
  let failedScenarios = 0;
  const record = (entry: Record<string, unknown>, ok: boolean, target: string) => {
    figures.push(entry);
    if (!ok) failedScenarios++;
    console.log(`${ok ? "ok  " : "FORA"} ${JSON.stringify(entry)} — meta: ${target}; carga média ${os.loadavg()[0]!.toFixed(1)}`);
  };
  try {
    const rolled = await rollUnderLoad(20);
    record(rolled, rolled.failed === 0 && rolled.lost === 0, "0 falhas, 0 gravações perdidas");
    for (const kind of ["postgres", "node"] as const) {
      const result = await failover(kind);
      record(
        result,
        result.gapSeconds <= 15 && result.lost === 0 && result.exits.length === 0 && Object.keys(result.wrong5xx).length === 0,
        "intervalo ≤ 15 s, só 503 com Retry-After, 0 saídas, 0 gravações perdidas",
      );
    }
    const twelve = await twelveInstances(20);
    record(twelve, twelve.failed === 0 && twelve.tooManyClients === 0 && twelve.lost === 0, "0 falhas, nenhum too many clients");
  } finally {
    await down(true);
  }
  console.log(failedScenarios ? `cluster: ${failedScenarios} cenário(s) fora da meta` : "cluster: todos os cenários na meta");
  process.exitCode = failedScenarios ? 1 : 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve("scripts/cluster-load.ts")) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.stack : String(error));
    process.exitCode = 1;
    void down(true);
  });
}
