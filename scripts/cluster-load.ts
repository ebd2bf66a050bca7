/**
 * The reference cluster's scenarios under the mixed load of `npm run chaos` (scripts/bench/load.ts),
 * each printing its figures and targets: rolling upgrade (0 failed requests); then one fault at a
 * time (issue 63: FAULTS below — the primary's PostgreSQL, its Patroni, its whole node, one etcd
 * member killed, one frozen 30 s, etcd away 30 s (all three frozen), the primary's Patroni alone cut
 * off etcd 30 s (a one-sided partition: two writable primaries watched too), PgBouncer killed, one HAProxy of
 * the HTTP pair killed, the PostgreSQL HAProxy killed), each with its write gap (≤ 10 s), its failed
 * requests (only 503 with Retry-After and the Portuguese message), gate exits (0) and acknowledged
 * writes lost (0), the cluster healthy again before the next; and 12 instances × DATABASE_POOL_MAX=10
 * through PgBouncer on PostgreSQL's max_connections=50. First, the control plane: each
 * unauthenticated call refused, each authenticated one accepted (controlPlane).
 * `npm run chaos -- --cluster` runs them all (`tsx scripts/cluster-load.ts`), starting and stopping the cluster.
 */
import fs from "node:fs";
import http from "node:http";
import tls from "node:tls";
import os from "node:os";
import path from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { closeDatabase, connectDatabase, type Db } from "../src/lib/server/data/db.ts";
import pg from "pg";
import { createLoadCast, runLoad, verifyLoad, type LoadCast, type LoadResult } from "./bench/load.ts";
import {
  adminSocket,
  alive,
  clusterSecrets,
  databaseUrl,
  down,
  etcdCall,
  etcdToken,
  ETCD_MEMBERS,
  etcdRelayAddress,
  etcdRelayName,
  HTTP_PROXIES,
  HTTP_URL,
  HTTP_URLS,
  NODES,
  PG_PROXY,
  patroniMembers,
  pidOf,
  PORTS,
  restartDetached,
  roll,
  ROOT,
  serverState,
  startGateProcess,
  stopComponent,
  up,
  restartPatroni,
} from "./cluster.ts";

/** Requests sent again to the other HAProxy of the pair: refused a connection, or cut before any answer. */
const pair = { refused: 0, cut: 0, turn: 0 };

/**
 * The client of a portal with two HAProxy (the DNS name's two addresses): each request goes to one
 * of them in turn, and one that gets no answer (connection refused, or cut before any answer) is sent
 * once to the other — what a browser does with a name's second address, and safe because the
 * portal's writes are PUTs or repeatable (deploy/haproxy.cfg, `retry-on`). An answer, any status, is
 * final; an abort (the caller's timeout or stop) is not retried.
 */
export const pairFetch: typeof fetch = async (input, init) => {
  const url = String(input);
  const first = pair.turn++ % HTTP_URLS.length;
  let lastError: unknown;
  for (let attempt = 0; attempt < HTTP_URLS.length; attempt++) {
    const base = HTTP_URLS[(first + attempt) % HTTP_URLS.length]!;
    try {
      return await fetch(url.startsWith(HTTP_URL) ? base + url.slice(HTTP_URL.length) : url, init);
    } catch (error) {
      if (init?.signal?.aborted) throw error;
      lastError = error;
      if (attempt + 1 < HTTP_URLS.length) {
        if ((error as { cause?: { code?: string } }).cause?.code === "ECONNREFUSED") pair.refused++;
        else pair.cut++;
      }
    }
  }
  throw lastError;
};

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
    fetch: pairFetch,
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

/** What is wrong with an answer during a fault: anything but a 503 with Retry-After and the Portuguese message among the 5xx. */
function checkAnswer(problems: Map<string, number>) {
  return (_kind: string, response: Response, body: string) => {
    if (response.status < 500) return;
    let problem: string | null = null;
    if (response.status !== 503) problem = `${response.status}`;
    else if (!/^\d+$/.test(response.headers.get("retry-after") ?? "")) problem = `503 sem Retry-After: ${body.slice(0, 60)}`;
    else if (!/indispon[ií]vel/i.test(body)) problem = `503 sem a mensagem em português: ${body.slice(0, 60)}`;
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
    // failsafe_mode's endpoint: whoever may call it could make a standby believe in a leader that is gone.
    [
      "POST",
      "/failsafe",
      JSON.stringify({ name: "intruso", api_url: "http://127.0.0.1:9/patroni", conn_url: "postgres://127.0.0.1:9/postgres" }),
    ],
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
  // Each of the three members: authentication is cluster-wide, but each client port is a door.
  for (const [index, port] of PORTS.etcd.entries()) {
    const anonymous = await etcdCall("kv/range", range, undefined, port).then(
      (answer) => `${(answer.kvs as unknown[] | undefined)?.length ?? 0} chaves`,
      (error: Error) => error.message,
    );
    check(
      `etcd ${ETCD_MEMBERS[index]}: ler /service/b1/ sem usuário`,
      anonymous,
      /user name is empty|permission denied|invalid auth token/.test(anonymous),
    );
  }
  // Each node's relays to etcd (the partition scenario's): a door of their own, on 127.0.0.1 only,
  // that must not skip etcd's authentication (they copy bytes; etcd still asks who is calling).
  for (const index of NODES.keys()) {
    for (const port of PORTS.etcd) {
      const anonymous = await etcdCall("kv/range", range, undefined, port, etcdRelayAddress(index)).then(
        (answer) => `${(answer.kvs as unknown[] | undefined)?.length ?? 0} chaves`,
        (error: Error) => error.message,
      );
      check(
        `relay do etcd de ${NODES[index]} (${etcdRelayAddress(index)}:${port}): ler /service/b1/ sem usuário`,
        anonymous,
        /user name is empty|permission denied|invalid auth token/.test(anonymous),
      );
    }
  }
  // Patroni still discovers the members (by name) and, through its /etc/hosts, reaches its relays only.
  const discovered = JSON.stringify(
    ((await etcdCall("cluster/member/list", {})).members as { clientURLs?: string[] }[]).map((member) => member.clientURLs),
  );
  check("etcd: endereços anunciados aos clientes (nomes, não 127.0.0.1)", discovered, !discovered.includes("127.0.0.1"));
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
  // etcd's peer ports: Raft only over TLS with a certificate of the cluster's CA.
  for (const [index, port] of PORTS.etcdPeer.entries()) {
    const plain = await fetch(`http://127.0.0.1:${port}/members`, { signal: AbortSignal.timeout(3_000) }).then(
      async (response) => `HTTP ${response.status}: ${(await response.text()).slice(0, 40)}`,
      (error: Error) => String((error.cause as Error | undefined)?.message ?? error.message),
    );
    check(`etcd ${ETCD_MEMBERS[index]}: porta de pares sem TLS`, plain, !/^HTTP 200/.test(plain));
    const noCert = await new Promise<string>((resolve) => {
      const socket = tls.connect({ host: "127.0.0.1", port, rejectUnauthorized: false }, () => {
        socket.write("GET /members HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
      });
      let answer = "";
      socket.setTimeout(3_000, () => socket.destroy(new Error("tempo esgotado")));
      socket.on("data", (chunk) => (answer += chunk));
      socket.on("end", () => resolve(answer ? answer.split("\r\n")[0]! : "fechada sem resposta"));
      socket.on("error", (error) => resolve(error.message));
    });
    check(`etcd ${ETCD_MEMBERS[index]}: porta de pares com TLS, sem certificado de cliente`, noCert, !/^HTTP\/1\.1 200/.test(noCert));
  }
  // HAProxy (the HTTP pair and PostgreSQL's): no stats page; the runtime API only on its socket, readable by its owner alone.
  for (const name of [...HTTP_PROXIES, PG_PROXY]) {
    const socketMode = fs.statSync(adminSocket(name)).mode & 0o777;
    check(`${name}: socket da API de administração`, socketMode.toString(8), (socketMode & 0o077) === 0);
  }
  // What restartDetached keeps (how each component was started): its owner's alone.
  const startFiles = fs.readdirSync(path.join(ROOT, "run")).filter((file) => file.endsWith(".start.json"));
  const startModes = startFiles.map((file) => fs.statSync(path.join(ROOT, "run", file)).mode & 0o777);
  check(
    "como reiniciar cada componente (run/*.start.json)",
    `${startFiles.length} arquivos, modos ${[...new Set(startModes)].map((mode) => mode.toString(8)).join(",")}`,
    startFiles.length > 0 && startModes.every((mode) => (mode & 0o077) === 0),
  );
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

/** One write probe: PUT /api/trail through the HAProxy pair; true when acknowledged (200). */
function probeWrite(token: string, projectName: string): Promise<boolean> {
  return pairFetch(`${HTTP_URL}/api/trail`, {
    method: "PUT",
    headers: { cookie: `b1_session=${token}`, origin: HTTP_URL, "content-type": "application/json" },
    body: JSON.stringify({ completed: [], answers: {}, projectName, updatedAt: Date.now() }),
    signal: AbortSignal.timeout(15_000),
  }).then(
    async (response) => {
      await response.arrayBuffer();
      return response.status === 200;
    },
    () => false,
  );
}

/**
 * Writes every 100 ms, one after the other; from `faultAt` on, resolves with `gapSeconds`, the
 * longest time writes stopped (between two acknowledged writes, the first being the last one before
 * the fault: a write that hangs counts as stopped), and `backSeconds`, from the fault to the first
 * write acknowledged after the last refused one (0 when none was refused: a fault that stops writes
 * only some seconds after it began, as etcd away does, has a short gap and a longer back).
 */
async function writeGap(
  token: string,
  faultAt: () => number | null,
  signal: AbortSignal,
): Promise<{ gapSeconds: number; backSeconds: number; refused: number }> {
  let refused = 0;
  let lastRefusedAt: number | null = null;
  let firstOkAfter: number | null = null;
  let lastOkAt: number | null = null;
  let longest = 0;
  let sequence = 0;
  while (!signal.aborted) {
    const at = performance.now();
    const ok = await probeWrite(token, `sonda ${++sequence}`);
    const end = performance.now();
    const fault = faultAt();
    if (fault !== null && end >= fault && ok && lastOkAt !== null) longest = Math.max(longest, end - lastOkAt);
    if (ok) lastOkAt = end;
    if (fault !== null && at >= fault) {
      if (!ok) {
        refused++;
        lastRefusedAt = end;
        firstOkAfter = null;
      } else if (firstOkAfter === null) firstOkAfter = end;
    }
    await delay(100);
  }
  const fault = faultAt()!;
  const tenths = (ms: number) => Math.round(ms / 100) / 10;
  // Writes that never came back before the stop: stopped until now.
  if (lastOkAt !== null && lastRefusedAt !== null && lastRefusedAt > lastOkAt) longest = Math.max(longest, performance.now() - lastOkAt);
  return {
    gapSeconds: tenths(longest),
    backSeconds: lastRefusedAt === null ? 0 : tenths((firstOkAfter ?? performance.now()) - fault),
    refused,
  };
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

/** The etcd member that leads the Raft group now (maintenance/status on each member that answers). */
async function etcdLeaderIndex(): Promise<number> {
  for (const port of PORTS.etcd) {
    try {
      const status = await etcdCall("maintenance/status", {}, undefined, port);
      const leader = String(status.leader);
      for (const [index, other] of PORTS.etcd.entries()) {
        const header = (await etcdCall("maintenance/status", {}, undefined, other)).header as { member_id?: string };
        if (String(header.member_id) === leader) return index;
      }
    } catch {
      // ask the next member
    }
  }
  throw new Error("nenhum membro do etcd diz quem é o líder");
}

/** Sends `signal` to a component by its recorded pid. */
function signalComponent(name: string, signal: NodeJS.Signals): void {
  const pid = pidOf(name);
  if (!alive(pid)) throw new Error(`${name} não está rodando`);
  process.kill(pid!, signal);
}

/** SIGKILL, then, after `downMs`, the same start again (systemd's Restart=always with RestartSec). */
async function killAndRestart(name: string, downMs: number): Promise<string> {
  signalComponent(name, "SIGKILL");
  await delay(downMs);
  restartDetached(name);
  return `${name} morto (SIGKILL), reiniciado ${downMs / 1000} s depois`;
}

/**
 * One fault of issue 63: what it does (from the moment `fault` is called, which marks the gap's
 * start; it returns when the fault is over — the component back or the freeze ended), and its name.
 */
interface Fault {
  name: string;
  /** What was done; `figures` adds the fault's own measurements (and `twoPrimaries`, checked by faultMeetsTarget). */
  run: () => Promise<string | { what: string; figures: { twoPrimaries: boolean } & Record<string, unknown> }>;
}

/**
 * Every 200 ms until `stop()`, each node's PostgreSQL asked directly (not through HAProxy) whether
 * it is a standby (pg_is_in_recovery()): the samples where both accepted writes at once (two
 * primaries), and each node's answers (primário, réplica, sem resposta) counted.
 */
function watchPrimaries() {
  const secrets = clusterSecrets();
  const seen = NODES.map(() => ({ primário: 0, réplica: 0, "sem resposta": 0 }));
  let both = 0;
  let samples = 0;
  let stopped = false;
  const ask = async (index: number): Promise<"primário" | "réplica" | "sem resposta"> => {
    const client = new pg.Client({
      host: "127.0.0.1",
      port: PORTS.pg[index],
      user: "postgres",
      password: secrets.superuser,
      database: "postgres",
      connectionTimeoutMillis: 1_000,
      query_timeout: 1_000,
    });
    client.on("error", () => {});
    try {
      await client.connect();
      const { rows } = await client.query<{ standby: boolean }>("select pg_is_in_recovery() as standby");
      return rows[0]!.standby ? "réplica" : "primário";
    } catch {
      return "sem resposta";
    } finally {
      await client.end().catch(() => {});
    }
  };
  const loop = (async () => {
    while (!stopped) {
      const answers = await Promise.all(NODES.map((_, index) => ask(index)));
      samples++;
      answers.forEach((answer, index) => seen[index]![answer]++);
      if (answers.every((answer) => answer === "primário")) both++;
      await delay(200);
    }
  })();
  return {
    stop: async () => {
      stopped = true;
      await loop;
      return { samples, bothPrimary: both, byNode: Object.fromEntries(NODES.map((node, index) => [node, seen[index]])) };
    },
  };
}

const RESTART_SEC = 1_000;

/** The faults, in the order `npm run chaos -- --cluster` runs them. */
export const FAULTS: Record<string, Fault> = {
  postgres: {
    name: "PostgreSQL do primário morto",
    run: async () => {
      const index = await primaryIndex();
      process.kill(postmasterPid(index), "SIGKILL");
      return `postmaster de ${NODES[index]} morto (SIGKILL); o Patroni o reinicia`;
    },
  },
  patroni: {
    name: "Patroni do primário morto",
    run: async () => {
      const index = await primaryIndex();
      signalComponent(`patroni-${NODES[index]}`, "SIGKILL");
      // Until the other node leads, then the Patroni comes back (systemd) and joins as a standby.
      await waitForLeader((leader) => leader !== NODES[index]);
      await stopComponent(`patroni-${NODES[index]}`);
      await restartPatroni(index);
      return `Patroni de ${NODES[index]} morto (SIGKILL; o PostgreSQL dele seguiu no ar); volta como réplica`;
    },
  },
  node: {
    name: "nó inteiro do primário morto",
    run: async () => {
      const index = await primaryIndex();
      const postmaster = postmasterPid(index);
      signalComponent(`patroni-${NODES[index]}`, "SIGKILL");
      process.kill(postmaster, "SIGKILL");
      await waitForLeader((leader) => leader !== NODES[index]);
      // The node comes back as a standby (pg_rewind).
      await stopComponent(`patroni-${NODES[index]}`);
      await restartPatroni(index);
      return `Patroni e PostgreSQL de ${NODES[index]} mortos (SIGKILL); volta como réplica`;
    },
  },
  "etcd-kill": {
    name: "um membro do etcd morto",
    run: async () => {
      const index = await etcdLeaderIndex();
      return killAndRestart(`etcd-${ETCD_MEMBERS[index]}`, 15_000);
    },
  },
  "etcd-freeze": {
    name: "um membro do etcd congelado 30 s",
    run: async () => {
      const index = await etcdLeaderIndex();
      const name = `etcd-${ETCD_MEMBERS[index]}`;
      signalComponent(name, "SIGSTOP");
      await delay(30_000);
      signalComponent(name, "SIGCONT");
      return `${name} (o líder do Raft) congelado (SIGSTOP) 30 s`;
    },
  },
  "etcd-away": {
    // Both nodes lose etcd (the one-sided case, only the primary's Patroni cut off: etcd-partition).
    name: "etcd inteiro fora de alcance 30 s (3 membros congelados)",
    run: async () => {
      for (const member of ETCD_MEMBERS) signalComponent(`etcd-${member}`, "SIGSTOP");
      await delay(30_000);
      for (const member of ETCD_MEMBERS) signalComponent(`etcd-${member}`, "SIGCONT");
      return "os 3 membros congelados (SIGSTOP) 30 s: as chamadas dos dois nós ao etcd esgotam o tempo";
    },
  },
  "etcd-partition": {
    name: "etcd isolado do primário 30 s (partição de um lado)",
    run: async () => {
      // Only the primary's Patroni loses etcd (its relays stop carrying anything: timeouts, no
      // refusal, scripts/etcd-partition-proxy.ts); the standby's Patroni still reaches etcd, and
      // the gates still reach the primary's PostgreSQL through HAProxy. Watched from before the
      // cut until 10 s after the heal (when the old primary could come back beside a new one).
      const index = await primaryIndex();
      const relay = etcdRelayName(index);
      const watch = watchPrimaries();
      const leaders = new Set<string>();
      let watching = true;
      const leaderWatch = (async () => {
        while (watching) {
          for (const member of await patroniMembers()) if (member.role === "leader") leaders.add(member.name);
          await delay(500);
        }
      })();
      try {
        signalComponent(relay, "SIGUSR1");
        await delay(30_000);
      } finally {
        signalComponent(relay, "SIGUSR2");
      }
      await delay(10_000);
      watching = false;
      await leaderWatch;
      const primaries = await watch.stop();
      return {
        what: `Patroni de ${NODES[index]} (primário) sem etcd 30 s (${relay}: SIGUSR1, depois SIGUSR2); o de ${NODES[1 - index]} o alcança`,
        figures: {
          twoPrimaries: primaries.bothPrimary > 0,
          primaries,
          leadersSeen: [...leaders],
        },
      };
    },
  },
  pgbouncer: {
    name: "PgBouncer morto",
    run: () => killAndRestart("pgbouncer", RESTART_SEC),
  },
  "haproxy-http": {
    name: "um HAProxy do par HTTP morto",
    run: () => killAndRestart(HTTP_PROXIES[0], 15_000),
  },
  "haproxy-pg": {
    name: "HAProxy do PostgreSQL morto",
    run: () => killAndRestart(PG_PROXY, RESTART_SEC),
  },
};

/**
 * Faults beyond the target, for the fault pass (`--scenario <name>` only, not in a whole run): two
 * etcd members killed at once, no quorum left — with failsafe_mode the primary keeps writing while it
 * reaches the standby's REST API; no failover can happen until the quorum is back.
 */
export const EXTRA_FAULTS: Record<string, Fault> = {
  "etcd-two": {
    name: "dois membros do etcd mortos 20 s (sem quórum)",
    run: async () => {
      const leader = await etcdLeaderIndex();
      const names = [leader, (leader + 1) % ETCD_MEMBERS.length].map((index) => `etcd-${ETCD_MEMBERS[index]}`);
      for (const name of names) signalComponent(name, "SIGKILL");
      await delay(20_000);
      for (const name of names) restartDetached(name);
      return `${names.join(" e ")} mortos (SIGKILL) 20 s, depois reiniciados`;
    },
  },
};

async function waitForLeader(accept: (leader: string) => boolean, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const leader = (await patroniMembers()).find((member) => member.role === "leader" && member.state === "running");
    if (leader && accept(leader.name)) return;
    if (Date.now() > deadline) throw new Error(`nenhum novo primário em ${timeoutMs / 1000} s`);
    await delay(200);
  }
}

/** The cluster whole again: 3 etcd members, a leader and a streaming synchronous standby, every proxy and gate up. */
export async function waitHealthy(timeoutMs = 180_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let why = "";
  for (;;) {
    why = await healthProblem().catch((error: Error) => error.message);
    if (why === "") return;
    if (Date.now() > deadline) throw new Error(`o cluster não voltou ao normal em ${timeoutMs / 1000} s: ${why}`);
    await delay(500);
  }
}

async function healthProblem(): Promise<string> {
  for (const [index, port] of PORTS.etcd.entries()) {
    const ok = await fetch(`http://127.0.0.1:${port}/health`, { signal: AbortSignal.timeout(2_000) }).then(
      async (response) => response.ok && (await response.text()).includes("true"),
      () => false,
    );
    if (!ok) return `etcd ${ETCD_MEMBERS[index]} sem saúde`;
  }
  const members = await patroniMembers();
  const leader = members.find((member) => member.role === "leader" && member.state === "running");
  if (!leader) return "sem primário";
  // "running" until Patroni 3.0.4, "streaming" after.
  if (!members.some((member) => member.role === "sync_standby" && (member.state === "streaming" || member.state === "running")))
    return "sem réplica síncrona";
  for (const name of [...HTTP_PROXIES, PG_PROXY, "pgbouncer"]) if (!alive(pidOf(name))) return `${name} fora`;
  for (const node of NODES) {
    const state = (await serverState("postgres_primary", node)).status;
    if (node === leader.name ? state !== "UP" : !state.startsWith("DOWN")) return `HAProxy do PostgreSQL: ${node} ${state}`;
  }
  for (const url of HTTP_URLS) {
    const ready = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(2_000) }).then(
      (response) => response.status === 200,
      () => false,
    );
    if (!ready) return `${url}/readyz`;
  }
  return "";
}

/**
 * One fault under the mixed load through the HAProxy pair, with a write probe every 100 ms: the
 * gap, every failed request (each 5xx checked: 503, Retry-After, the Portuguese message; any
 * network error is a failure of its own), the gates that exited, the acknowledged writes missing
 * afterwards, and the requests the client sent again to the other HAProxy.
 */
export async function runFault(key: string) {
  const fault = Object.hasOwn(FAULTS, key) ? FAULTS[key] : Object.hasOwn(EXTRA_FAULTS, key) ? EXTRA_FAULTS[key] : undefined;
  if (!fault) throw new Error(`cenário desconhecido: ${key}`);
  await waitHealthy();
  return withDb(async (db) => {
    const cast = await createLoadCast(db, 4, 3);
    const prober = await createLoadCast(db, 1, 0);
    const problems = new Map<string, number>();
    const pairBefore = { ...pair };
    const load = startLoad(cast, checkAnswer(problems));
    const probing = new AbortController();
    let faultAt: number | null = null;
    const gap = writeGap(prober.people[0]!.token, () => faultAt, probing.signal);
    await delay(3_000);
    faultAt = performance.now();
    const outcome = await fault.run();
    const { what, figures: own } = typeof outcome === "string" ? { what: outcome, figures: undefined } : outcome;
    // Until writes are acknowledged again, then 3 s more.
    await waitForWrites(prober.people[0]!.token, 60_000);
    await delay(3_000);
    probing.abort();
    const { result, failed: failedRequests, failures } = await load.stop();
    const { gapSeconds, backSeconds, refused } = await gap;
    // Network errors, except the requests the load's own stop cut (startLoad leaves those out of `failures`).
    const networkErrors = Object.entries(failures)
      .filter(([what]) => !/ HTTP \d+$/.test(what))
      .reduce((sum, [, count]) => sum + count, 0);
    const figures = {
      scenario: fault.name,
      what,
      primary: (await patroniMembers()).find((member) => member.role === "leader")?.name ?? "nenhum",
      gapSeconds,
      backSeconds,
      refusedWrites: refused,
      requests: Object.values(result.stats).reduce((sum, stat) => sum + stat.requests, 0),
      failed: failedRequests,
      notOnly503: Object.fromEntries(problems),
      networkErrors,
      failures,
      /** Sent again to the other HAProxy: after a refused connection, and after one cut before any answer (in flight at the kill). */
      otherProxyAfterRefused: pair.refused - pairBefore.refused,
      otherProxyAfterCut: pair.cut - pairBefore.cut,
      exits: gateExits(),
      lost: (await verifyAfter(db, cast, result)).length,
      ...own,
    };
    await waitHealthy();
    return figures;
  });
}

/** The target of every fault: gap ≤ 10 s, failures only 503 + Retry-After (no other status, no network error), 0 exits, 0 lost. */
export function faultMeetsTarget(figures: Awaited<ReturnType<typeof runFault>>): boolean {
  return (
    figures.gapSeconds <= 10 &&
    Object.keys(figures.notOnly503).length === 0 &&
    figures.networkErrors === 0 &&
    figures.exits.length === 0 &&
    figures.lost === 0 &&
    figures.twoPrimaries !== true
  );
}

async function waitForWrites(token: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probeWrite(token, "espera"))) {
    if (Date.now() > deadline) throw new Error(`as gravações não voltaram em ${timeoutMs / 1000} s`);
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

/** One line for a fault's figures against its targets (Portuguese, with the JSON after it). */
function faultLine(figures: Awaited<ReturnType<typeof runFault>>): string {
  const wrong = Object.keys(figures.notOnly503).length > 0 || figures.networkErrors > 0;
  return (
    `${figures.scenario}: gravações paradas ${figures.gapSeconds.toFixed(1).replace(".", ",")} s no máximo (meta ≤ 10; de volta ` +
    `${figures.backSeconds.toFixed(1).replace(".", ",")} s depois da falha); ` +
    `${figures.failed} requisições recusadas, ${wrong ? "NEM TODAS" : "todas"} 503 com Retry-After em português ` +
    `(meta: só essas; outras ${JSON.stringify(figures.notOnly503)}, erros de rede ${figures.networkErrors}); ` +
    `${figures.lost} gravações confirmadas perdidas (meta 0); saídas ${figures.exits.length}; ` +
    `reenviadas ao outro HAProxy ${figures.otherProxyAfterRefused} (conexão recusada) + ${figures.otherProxyAfterCut} (cortadas sem resposta)` +
    (figures.twoPrimaries === undefined
      ? ""
      : `; dois primários aceitando gravações ao mesmo tempo: ${figures.twoPrimaries ? "SIM" : "nunca"} (meta: nunca)`)
  );
}

async function main(): Promise<void> {
  // `--scenario <name>`: one scenario on a cluster already up (npm run cluster -- up).
  const only = process.argv.indexOf("--scenario");
  if (only !== -1) {
    const name = process.argv[only + 1] ?? "";
    if (Object.hasOwn(FAULTS, name) || Object.hasOwn(EXTRA_FAULTS, name)) {
      const figures = await runFault(name);
      console.log(`${faultMeetsTarget(figures) ? "ok  " : "FORA"} ${faultLine(figures)}`);
      console.log(JSON.stringify(figures));
      return;
    }
    const result = name === "control" ? await controlPlane() : name === "twelve" ? await twelveInstances(20) : null;
    console.log(
      result
        ? JSON.stringify(result)
        : `uso: --scenario control|twelve|${[...Object.keys(FAULTS), ...Object.keys(EXTRA_FAULTS)].join("|")}`,
    );
    return;
  }
  const load = os
    .loadavg()
    .map((value) => value.toFixed(1))
    .join(" ");
  console.log(`cluster de referência (${new Date().toISOString()}, ${os.cpus().length} núcleos, carga média antes: ${load})`);
  await up(3);
  let failedScenarios = 0;
  const record = (entry: Record<string, unknown>, ok: boolean, target: string) => {
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
    for (const key of Object.keys(FAULTS)) {
      const figures = await runFault(key);
      const ok = faultMeetsTarget(figures);
      if (!ok) failedScenarios++;
      console.log(`${ok ? "ok  " : "FORA"} ${faultLine(figures)}; carga média ${os.loadavg()[0]!.toFixed(1)}`);
      console.log(`     ${JSON.stringify(figures)}`);
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
    // A whole run brought the cluster up and takes it down; --scenario leaves the one it was given.
    if (!process.argv.includes("--scenario")) void down(true);
  });
}
