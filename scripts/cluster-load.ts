/**
 * The reference cluster's scenarios under the mixed load of `npm run chaos` (scripts/bench/load.ts),
 * each printing its figures and targets: rolling upgrade (0 failed requests), kill -9 of the
 * PostgreSQL primary, kill -9 of the primary's whole Patroni node (standby promoted, gates 503 with
 * Retry-After meanwhile, never a 500 or an exit, 0 acknowledged writes lost, gap ≤ 15 s), and 12
 * instances × DATABASE_POOL_MAX=10 through PgBouncer on PostgreSQL's max_connections=50; first, the
 * control plane: each unauthenticated call refused, each authenticated one accepted (controlPlane).
 * `npm run chaos -- --cluster` runs them all (`tsx scripts/cluster-load.ts`), starting and stopping the cluster.
 */
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { closeDatabase, connectDatabase, type Db } from "../src/lib/server/data/db.ts";
import pg from "pg";
import { createLoadCast, runLoad, verifyLoad, type LoadCast, type LoadResult } from "./bench/load.ts";
import {
  ADMIN_SOCKET,
  alive,
  clusterSecrets,
  databaseUrl,
  down,
  etcdCall,
  etcdToken,
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
  const db = connectDatabase(databaseUrl());
  try {
    return await work(db);
  } finally {
    await closeDatabase(db);
  }
}

/** One HTTP request to Patroni's REST API from `localAddress` (another loopback address stands for a host outside the allow-list). */
function patroniRequest(
  port: number,
  method: string,
  route: string,
  options: { auth?: string; body?: string; localAddress?: string } = {},
): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: "127.0.0.1",
        port,
        method,
        path: route,
        localAddress: options.localAddress,
        timeout: 10_000,
        headers: {
          ...(options.auth ? { authorization: `Basic ${Buffer.from(options.auth).toString("base64")}` } : {}),
          ...(options.body ? { "content-type": "application/json" } : {}),
        },
      },
      (response) => {
        response.resume();
        response.on("end", () => resolve(response.statusCode ?? 0));
      },
    );
    request.on("timeout", () => request.destroy(new Error("tempo esgotado")));
    request.on("error", reject);
    request.end(options.body);
  });
}

/** The error of a PostgreSQL connection (null when it opened), closed at once. */
async function connectError(config: pg.ClientConfig): Promise<string | null> {
  const client = new pg.Client({ ...config, connectionTimeoutMillis: 5_000 });
  try {
    await client.connect();
    await client.query("select 1");
    return null;
  } catch (error) {
    return (error as Error).message;
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * Issue 62 item 1: every door of the control plane, knocked on without credentials (refused) and
 * with them (accepted). Each check is one entry of `checks`: what was tried, what came back, and
 * whether that is the expected answer.
 */
export async function controlPlane() {
  const secrets = clusterSecrets();
  const checks: { what: string; got: string; ok: boolean }[] = [];
  const check = (what: string, got: string | number | null, ok: boolean) => checks.push({ what, got: String(got), ok });
  const rest = PORTS.rest[0]!;
  const auth = `patroni:${secrets.restapi}`;
  const harmless = JSON.stringify({ maximum_lag_on_failover: 1048576 });
  // Patroni: the unsafe endpoints.
  for (const [method, route, body] of [
    ["PATCH", "/config", harmless],
    ["POST", "/reload", undefined],
    ["POST", "/restart", "{}"],
    ["POST", "/switchover", JSON.stringify({ leader: "pg1" })],
    ["POST", "/reinitialize", "{}"],
    ["PUT", "/config", harmless],
  ] as const) {
    const status = await patroniRequest(rest, method, route, { body });
    check(`Patroni ${method} ${route} sem senha`, status, status === 401 || status === 403);
  }
  const wrong = await patroniRequest(rest, "PATCH", "/config", { auth: "patroni:senha-errada", body: harmless });
  check("Patroni PATCH /config com senha errada", wrong, wrong === 401);
  const outside = await patroniRequest(rest, "PATCH", "/config", { auth, body: harmless, localAddress: "127.0.0.2" });
  check("Patroni PATCH /config com senha, de fora da allowlist (127.0.0.2)", outside, outside === 403);
  const patched = await patroniRequest(rest, "PATCH", "/config", { auth, body: harmless });
  check("Patroni PATCH /config com senha (valor igual ao atual)", patched, patched === 200);
  const reloaded = await patroniRequest(rest, "POST", "/reload", { auth });
  check("Patroni POST /reload com senha", reloaded, reloaded === 202 || reloaded === 200);
  const primary = await patroniRequest(rest, "GET", "/cluster");
  check("Patroni GET /cluster (leitura, aberta para o HAProxy)", primary, primary === 200);
  // etcd: Patroni's keys.
  const range = { key: Buffer.from("/service/b1/").toString("base64"), range_end: Buffer.from("/service/b10").toString("base64") };
  const anonymous = await etcdCall("kv/range", range).then(
    (answer) => `${(answer.kvs as unknown[] | undefined)?.length ?? 0} chaves`,
    (error: Error) => error.message,
  );
  check("etcd: ler /service/b1/ sem usuário", anonymous, /user name is empty|permission denied|invalid auth token/.test(anonymous));
  const wrongEtcd = await etcdToken("patroni", "senha-errada").then(
    () => "token",
    (error: Error) => error.message,
  );
  check("etcd: autenticar com senha errada", wrongEtcd, /authentication failed/.test(wrongEtcd));
  const token = await etcdToken("patroni", secrets["etcd-patroni"]);
  const keys = ((await etcdCall("kv/range", range, token)).kvs as unknown[] | undefined)?.length ?? 0;
  check("etcd: ler /service/b1/ como patroni", `${keys} chaves`, keys > 0);
  const elsewhere = await etcdCall("kv/put", { key: Buffer.from("/outra/chave").toString("base64"), value: "" }, token).then(
    () => "gravou",
    (error: Error) => error.message,
  );
  check("etcd: patroni gravar fora de /service/", elsewhere, /permission denied/.test(elsewhere));
  // PostgreSQL (direct and through PgBouncer) and PgBouncer's console.
  const direct = { host: "127.0.0.1", port: PORTS.pg[0], user: "postgres", database: "postgres" };
  const noPassword = await connectError({ ...direct, password: "senha-errada" });
  check("PostgreSQL direto com senha errada", noPassword, /password authentication failed/.test(noPassword ?? ""));
  const bouncer = { host: "127.0.0.1", port: PORTS.bouncer, user: "postgres" };
  const bouncerWrong = await connectError({ ...bouncer, database: "b1", password: "senha-errada" });
  check("PgBouncer com senha errada", bouncerWrong, /password authentication failed|SASL/.test(bouncerWrong ?? ""));
  const bouncerOk = await connectError({ ...bouncer, database: "b1", password: secrets.superuser });
  check("PgBouncer com a senha gerada", bouncerOk ?? "conectou", bouncerOk === null);
  const console_ = await connectError({ ...bouncer, database: "pgbouncer", password: secrets.superuser });
  check(
    "console do PgBouncer (SHOW/PAUSE/SHUTDOWN) com a senha do portal",
    console_ ?? "abriu",
    /not allowed|no such database/.test(console_ ?? ""),
  );
  // HAProxy: no stats page; the runtime API only on its socket, readable by its owner alone.
  const socketMode = fs.statSync(ADMIN_SOCKET).mode & 0o777;
  check("HAProxy: socket da API de administração", socketMode.toString(8), (socketMode & 0o077) === 0);
  // The secrets: folder 0700, files 0600.
  const secretModes = fs.readdirSync(path.join(ROOT, "secrets")).map((file) => fs.statSync(path.join(ROOT, "secrets", file)).mode & 0o777);
  const dirMode = fs.statSync(path.join(ROOT, "secrets")).mode & 0o777;
  check(
    "segredos: pasta e arquivos",
    `${dirMode.toString(8)} / ${[...new Set(secretModes)].map((mode) => mode.toString(8)).join(",")}`,
    dirMode === 0o700 && secretModes.every((mode) => mode === 0o600),
  );
  return {
    scenario: "plano de controle",
    refusedOrAccepted: checks.filter((entry) => entry.ok).length,
    wrong: checks.filter((entry) => !entry.ok),
    checks,
  };
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
      name === "control"
        ? await controlPlane()
        : name === "primary"
          ? await failover("postgres")
          : name === "node"
            ? await failover("node")
            : name === "twelve"
              ? await twelveInstances(20)
              : null;
    console.log(result ? JSON.stringify(result) : "uso: --scenario control|primary|node|twelve");
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
    const control = await controlPlane();
    for (const entry of control.checks) console.log(`  ${entry.ok ? "ok  " : "FORA"} ${entry.what}: ${entry.got}`);
    record(
      { scenario: control.scenario, checks: control.checks.length, wrong: control.wrong },
      control.wrong.length === 0,
      "toda chamada sem credencial recusada, toda com credencial aceita",
    );
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
