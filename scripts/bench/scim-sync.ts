/**
 * `npm run bench -- --scim-sync [N]`: a directory's first sync of N people (default 100,000) as
 * Entra ID plays it — per person `GET /Users?filter=userName eq "…"` then `POST /Users` — with
 * --concurrency requests in parallel (default 12), then --groups groups (default 100) created and
 * filled by PATCH in batches of --batch members (default 100), against the BUILT portal with a SCIM
 * token, on SQLite (a temporary file) and then on PostgreSQL (DATABASE_URL, an empty database, or a
 * throw-away cluster; --engine sqlite|postgres for one only). After the sync: GET /Users pages
 * (startIndex spread over the whole list) and `userName eq` / `externalId eq` lookups, --samples
 * each (default 200), one at a time; p50/p95 against the targets (sync < 15 min, ≤ 50 ms p95), the
 * server's CPU time per person (/proc utime + stime), and `npm run audit:verify` on the result.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { findBinDir, freePort, startCluster } from "../pg-cluster.mjs";
import { benchGateFlags, cpuSeconds, loadAverage, startServer } from "./process.ts";

const SYNC_TARGET_S = 15 * 60;
const READ_TARGET_MS = 50;
const TOKEN = "scim-bench-0123456789abcdef0123456789abcdef";
const USER = "urn:ietf:params:scim:schemas:core:2.0:User";
const ENTERPRISE = "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User";
const GROUP = "urn:ietf:params:scim:schemas:core:2.0:Group";
const PATCH = "urn:ietf:params:scim:api:messages:2.0:PatchOp";

export interface ScimSyncOptions {
  people: number;
  concurrency: number;
  groups: number;
  batch: number;
  samples: number;
  engines: ("sqlite" | "postgres")[];
  /** postgres:// URL of an empty database, or null for a throw-away cluster. */
  pgTarget: string | null;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
const round1 = (value: number) => Math.round(value * 10) / 10;
const summary = (times: number[]) => {
  const sorted = [...times].sort((a, b) => a - b);
  return { p50: round1(percentile(sorted, 50)), p95: round1(percentile(sorted, 95)), max: round1(sorted.at(-1) ?? 0) };
};

const userName = (i: number) => `pessoa.${i}@b1.example.com`;
const externalId = (i: number) => `entra-${(i * 2_654_435_761) % 4_294_967_296}-${i}`;

/** The User Entra ID sends on a first sync (its default attribute mappings). */
function entraUser(i: number) {
  return {
    schemas: [USER, ENTERPRISE],
    externalId: externalId(i),
    userName: userName(i),
    active: true,
    displayName: `Pessoa ${i}`,
    name: { givenName: "Pessoa", familyName: `Número ${i}`, formatted: `Pessoa Número ${i}` },
    emails: [{ primary: true, type: "work", value: userName(i) }],
    [ENTERPRISE]: { department: `Área ${i % 40}`, employeeNumber: String(100_000 + i) },
  };
}

interface Call {
  status: number;
  ms: number;
  body: Record<string, unknown> | null;
}

function client(base: string) {
  return async (method: string, pathAndQuery: string, body?: unknown): Promise<Call> => {
    const started = performance.now();
    const response = await fetch(`${base}/scim/v2${pathAndQuery}`, {
      method,
      headers: {
        authorization: `Bearer ${TOKEN}`,
        accept: "application/scim+json",
        ...(body === undefined ? {} : { "content-type": "application/scim+json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, ms: performance.now() - started, body: text ? (JSON.parse(text) as Record<string, unknown>) : null };
  };
}

/** Runs `task(i)` for i in [0, count) with `concurrency` workers; the first failure stops everything. */
async function inParallel(count: number, concurrency: number, task: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, count) }, async () => {
      while (next < count) await task(next++);
    }),
  );
}

const expectStatus = (call: Call, status: number, what: string) => {
  if (call.status !== status) throw new Error(`${what}: ${call.status} ${JSON.stringify(call.body)?.slice(0, 300)}`);
};

interface EngineFigures {
  engine: string;
  people: number;
  syncSeconds: number;
  personsPerSecond: number;
  cpuMsPerPerson: number;
  lookupDuringSync: ReturnType<typeof summary>;
  createDuringSync: ReturnType<typeof summary>;
  groups: { count: number; members: number; seconds: number; patch: ReturnType<typeof summary>; unavailable: number };
  reads: Record<string, ReturnType<typeof summary>>;
  auditVerify: string;
  load: { before: string; after: string };
}

async function syncOn(engine: "sqlite" | "postgres", options: ScimSyncOptions, databaseUrl: string | null): Promise<EngineFigures> {
  const log = (line: string) => console.log(`• [${engine}] ${line}`);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "b1-bench-scim-"));
  const dbEnv: Record<string, string> = databaseUrl
    ? { DATABASE_URL: databaseUrl, DATABASE_PATH: path.join(dataDir, "unused.sqlite") }
    : { DATABASE_URL: "", DATABASE_PATH: path.join(dataDir, "db.sqlite") };
  const auditKey = "ab".repeat(32);
  const port = await freePort();
  const gate = await startServer(
    process.execPath,
    [...benchGateFlags(), "dist/gate/main.mjs"],
    {
      ...dbEnv,
      HOST: "127.0.0.1",
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      SCIM_TOKEN: TOKEN,
      AUDIT_CHAIN_KEY: auditKey,
      AUTH_ALLOWED_DOMAINS: "b1.example.com",
      // The first ten groups give a role, so the membership PATCHes change roles as a real mapping does.
      OIDC_ROLE_MAP: Array.from({ length: Math.min(10, options.groups) }, (_, g) => `Grupo ${g}:lider`).join(","),
      RATE_LIMIT_MULTIPLIER: "1000000",
      READING_DIGEST: "false",
      LOG_LEVEL: "info",
      LOG_PRETTY: "0",
    },
    /no ar em (http:\/\/[^\s]+)/,
  );
  const pid = gate.child.pid!;
  const call = client(gate.match[1]!);
  try {
    const loadBefore = loadAverage();
    log(`sincronização de ${options.people} pessoas, ${options.concurrency} pedidos em paralelo · carga média ${loadBefore}`);
    const lookups: number[] = [];
    const creates: number[] = [];
    const ids: string[] = new Array(options.people);
    const cpuBefore = cpuSeconds(pid);
    const started = performance.now();
    let done = 0;
    await inParallel(options.people, options.concurrency, async (i) => {
      const found = await call("GET", `/Users?filter=${encodeURIComponent(`userName eq "${userName(i)}"`)}`);
      expectStatus(found, 200, `GET ${userName(i)}`);
      if ((found.body as { totalResults: number }).totalResults !== 0) throw new Error(`${userName(i)} já existe`);
      lookups.push(found.ms);
      const created = await call("POST", "/Users", entraUser(i));
      expectStatus(created, 201, `POST ${userName(i)}`);
      creates.push(created.ms);
      ids[i] = (created.body as { id: string }).id;
      done += 1;
      if (done % 10_000 === 0)
        log(`${done} pessoas em ${((performance.now() - started) / 1000).toFixed(0)} s · carga média ${loadAverage()}`);
    });
    const syncSeconds = (performance.now() - started) / 1000;
    const cpu = cpuSeconds(pid) - cpuBefore;
    log(`${options.people} pessoas em ${syncSeconds.toFixed(1)} s (${(options.people / syncSeconds).toFixed(1)}/s)`);

    // Groups as Entra sends them: look up, create empty, then add members by PATCH in batches.
    const groupStarted = performance.now();
    const patches: number[] = [];
    const perGroup = Math.ceil(options.people / Math.max(1, options.groups));
    let members = 0;
    let unavailable = 0;
    await inParallel(options.groups, options.concurrency, async (g) => {
      const name = `Grupo ${g}`;
      const found = await call("GET", `/Groups?excludedAttributes=members&filter=${encodeURIComponent(`displayName eq "${name}"`)}`);
      expectStatus(found, 200, `GET grupo ${name}`);
      const created = await call("POST", "/Groups", { schemas: [GROUP], displayName: name, externalId: `grupo-${g}`, members: [] });
      expectStatus(created, 201, `POST grupo ${name}`);
      const id = (created.body as { id: string }).id;
      const mine = ids.slice(g * perGroup, (g + 1) * perGroup);
      for (let from = 0; from < mine.length; from += options.batch) {
        const value = mine.slice(from, from + options.batch).map((member) => ({ value: member }));
        const body = { schemas: [PATCH], Operations: [{ op: "Add", path: "members", value }] };
        let patched = await call("PATCH", `/Groups/${id}`, body);
        // Entra retries a 503 later; each one is counted and reported.
        for (let retry = 0; patched.status === 503 && retry < 5; retry++) {
          unavailable += 1;
          await new Promise((resolve) => setTimeout(resolve, 1000));
          patched = await call("PATCH", `/Groups/${id}`, body);
        }
        expectStatus(patched, 204, `PATCH grupo ${name}`);
        patches.push(patched.ms);
        members += value.length;
      }
    });
    const groupSeconds = (performance.now() - groupStarted) / 1000;
    log(`${options.groups} grupos, ${members} membros em ${groupSeconds.toFixed(1)} s`);

    // Reads after the sync, one at a time: pages anywhere in the list, and both lookups Entra and Okta make.
    const reads: Record<string, number[]> = {
      "GET /Users página (count=100, startIndex em toda a lista)": [],
      "userName eq": [],
      "externalId eq": [],
    };
    const pick = (n: number) => (n * 7919 + 13) % options.people;
    for (let n = 0; n < options.samples; n++) {
      const startIndex = 1 + Math.floor((n / options.samples) * Math.max(1, options.people - 100));
      const page = await call("GET", `/Users?startIndex=${startIndex}&count=100`);
      expectStatus(page, 200, "página");
      reads["GET /Users página (count=100, startIndex em toda a lista)"]!.push(page.ms);
      const byName = await call("GET", `/Users?filter=${encodeURIComponent(`userName eq "${userName(pick(n))}"`)}`);
      expectStatus(byName, 200, "userName eq");
      if ((byName.body as { totalResults: number }).totalResults !== 1) throw new Error(`${userName(pick(n))} não encontrado`);
      reads["userName eq"]!.push(byName.ms);
      const byExternal = await call("GET", `/Users?filter=${encodeURIComponent(`externalId eq "${externalId(pick(n))}"`)}`);
      expectStatus(byExternal, 200, "externalId eq");
      if ((byExternal.body as { totalResults: number }).totalResults !== 1) throw new Error(`${externalId(pick(n))} não encontrado`);
      reads["externalId eq"]!.push(byExternal.ms);
    }
    const loadAfter = loadAverage();
    gate.child.kill();
    const verify = spawnSync(process.execPath, ["--import", "tsx", "scripts/audit-verify.ts"], {
      encoding: "utf8",
      env: { ...process.env, ...dbEnv, AUDIT_CHAIN_KEY: auditKey, LOG_LEVEL: "error" },
    });
    const auditVerify = `${verify.status === 0 ? "" : "FALHOU: "}${(verify.stdout + verify.stderr).trim().split("\n")[0]}`;
    log(`audit:verify → ${auditVerify}`);
    return {
      engine: engine === "sqlite" ? "SQLite" : "PostgreSQL",
      people: options.people,
      syncSeconds: round1(syncSeconds),
      personsPerSecond: round1(options.people / syncSeconds),
      cpuMsPerPerson: round1((cpu * 1000) / options.people),
      lookupDuringSync: summary(lookups),
      createDuringSync: summary(creates),
      groups: { count: options.groups, members, seconds: round1(groupSeconds), patch: summary(patches), unavailable },
      reads: Object.fromEntries(Object.entries(reads).map(([name, times]) => [name, summary(times)])),
      auditVerify,
      load: { before: loadBefore, after: loadAfter },
    };
  } finally {
    gate.child.kill();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** An empty database for one run: DATABASE_URL as given, or a new one in a throw-away cluster. */
async function postgresDatabase(pgTarget: string | null): Promise<{ url: string; stop: () => Promise<void> }> {
  if (pgTarget) return { url: pgTarget, stop: async () => {} };
  if (!findBinDir()) throw new Error("PostgreSQL não encontrado: defina DATABASE_URL ou use --engine sqlite");
  const cluster = await startCluster();
  const admin = new pg.Client({ connectionString: cluster.url });
  await admin.connect();
  await admin.query("create database b1_scim_sync");
  await admin.end();
  const url = new URL(cluster.url);
  url.pathname = "/b1_scim_sync";
  return { url: url.toString(), stop: () => cluster.stop() };
}

export async function benchScimSync(options: ScimSyncOptions): Promise<void> {
  if (!fs.existsSync("dist/gate/main.mjs")) throw new Error("dist/ não existe: rode `npm run build` antes");
  const results: EngineFigures[] = [];
  for (const engine of options.engines) {
    if (engine === "sqlite") {
      results.push(await syncOn("sqlite", options, null));
      continue;
    }
    const database = await postgresDatabase(options.pgTarget);
    try {
      results.push(await syncOn("postgres", options, database.url));
    } finally {
      await database.stop();
    }
  }
  console.log(
    `\nPrimeira sincronização SCIM (${options.people} pessoas, ${options.concurrency} pedidos em paralelo; ${options.groups} grupos, PATCH de ${options.batch} membros; ${options.samples} leituras por cenário, uma por vez; ${os.cpus().length} núcleos)`,
  );
  const rows = [];
  for (const r of results) {
    const sync = `${r.syncSeconds} s (${r.personsPerSecond}/s)`;
    rows.push({
      motor: r.engine,
      medida: "sincronização das pessoas (GET filtro + POST)",
      valor: sync,
      meta: `< ${SYNC_TARGET_S} s`,
      ok: r.syncSeconds < SYNC_TARGET_S,
    });
    rows.push({ motor: r.engine, medida: "CPU do servidor por pessoa (GET + POST)", valor: `${r.cpuMsPerPerson} ms`, meta: "", ok: null });
    rows.push({
      motor: r.engine,
      medida: "GET filtro durante a sincronização p50/p95",
      valor: `${r.lookupDuringSync.p50} / ${r.lookupDuringSync.p95} ms`,
      meta: "",
      ok: null,
    });
    rows.push({
      motor: r.engine,
      medida: "POST /Users durante a sincronização p50/p95",
      valor: `${r.createDuringSync.p50} / ${r.createDuringSync.p95} ms`,
      meta: "",
      ok: null,
    });
    rows.push({
      motor: r.engine,
      medida: `grupos: ${r.groups.count}, ${r.groups.members} membros (PATCH p50/p95 ${r.groups.patch.p50} / ${r.groups.patch.p95} ms; 503 repetidos: ${r.groups.unavailable})`,
      valor: `${r.groups.seconds} s`,
      meta: "",
      ok: null,
    });
    for (const [name, figures] of Object.entries(r.reads))
      rows.push({
        motor: r.engine,
        medida: `${name} p50/p95`,
        valor: `${figures.p50} / ${figures.p95} ms`,
        meta: `p95 ≤ ${READ_TARGET_MS} ms`,
        ok: figures.p95 <= READ_TARGET_MS,
      });
    rows.push({
      motor: r.engine,
      medida: "npm run audit:verify",
      valor: r.auditVerify.slice(0, 60),
      meta: "OK",
      ok: r.auditVerify.startsWith("OK"),
    });
    rows.push({ motor: r.engine, medida: "carga média antes → depois", valor: `${r.load.before} → ${r.load.after}`, meta: "", ok: null });
  }
  console.table(rows.map((row) => ({ ...row, ok: row.ok === null ? "" : row.ok ? "sim" : "NÃO" })));
  fs.mkdirSync("bench-results", { recursive: true });
  const out = path.join("bench-results", `scim-sync-${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
  fs.writeFileSync(out, JSON.stringify({ options: { ...options, pgTarget: undefined }, cores: os.cpus().length, results }, null, 2));
  console.log(`Resultados: ${out}`);
}
