// `npm test`: build once, then two lanes side by side — eslint, vitest and Playwright on SQLite; the
// database-facing vitest suites again on a throw-away PostgreSQL (and a few through PgBouncer) —
// then the suites that time the portal against a wall clock, alone, on both engines; and print one
// summary line CI can read. On 2 cores the one-after-another order used about 1.2 of them: most
// integration files wait on their servers, timeouts and sleeps.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { ephemeralPortRange, findBinDir, startCluster } from "./pg-cluster.mjs";
import { findPgbouncer, startPgbouncer } from "./pgbouncer.mjs";
import { failureReport, serverLogDuring } from "./test-report.mjs";

const results = "test-results";
fs.mkdirSync(results, { recursive: true });

/**
 * Runs a command to its end and resolves with its exit status. `output`: a file descriptor its
 * stdout and stderr go to (the PostgreSQL lane's log), else this process's own.
 */
function run(command, args, env = {}, output = undefined) {
  const line = `\n==> ${command} ${args.join(" ")}\n`;
  if (output === undefined) process.stdout.write(line);
  else fs.writeSync(output, line);
  const stdio = output === undefined ? "inherit" : ["ignore", output, output];
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio, env: { ...process.env, ...env }, shell: process.platform === "win32" });
    child.once("error", () => resolve(1));
    child.once("exit", (code) => resolve(code ?? 1));
  });
}

/**
 * The lanes' loopback ports: TEST_PORTS (or 16000 up to the kernel's ephemeral range) cut in two,
 * so the SQLite lane's servers and the PostgreSQL lane's never probe the same port.
 */
function lanePorts() {
  const chosen = /^(\d+)-(\d+)$/.exec(process.env.TEST_PORTS ?? "");
  const first = chosen ? Number(chosen[1]) : 16000;
  const last = chosen ? Number(chosen[2]) : ephemeralPortRange().low - 1;
  const middle = Math.floor((first + last) / 2);
  return { sqlite: `${first}-${middle}`, postgres: `${middle + 1}-${last}` };
}
const ports = lanePorts();

function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8"));
  } catch {
    return null;
  }
}

/** Unit test files that open a database: with tests/integration, the suites the PostgreSQL pass repeats. */
function databaseUnitFiles() {
  const found = [];
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (
        entry.name.endsWith(".test.ts") &&
        /openDatabase|openTestDatabase|openOwnTestDatabase|startBuiltServer|getDb/.test(fs.readFileSync(file, "utf8"))
      )
        found.push(file);
    }
  };
  walk("tests/unit");
  return found.sort();
}

function vitestArgs(report, files = []) {
  return ["vitest", "run", ...files, "--reporter=default", "--reporter=json", `--outputFile.json=${report}`];
}

/**
 * Integration suites about HTTP edges and content, where the database only holds a test user:
 * they run once, on SQLite, at the end of the PostgreSQL lane (in the SQLite lane when there is none).
 */
const ENGINE_NEUTRAL_SUITES = [
  "tests/integration/content/**",
  "tests/integration/security/body-flood.test.ts",
  "tests/integration/security/headers.test.ts",
  "tests/integration/security/protocol-abuse.test.ts",
  "tests/integration/security/path-agreement.test.ts",
  "tests/integration/ops/request-log.test.ts",
  "tests/integration/ops/node-version.test.ts",
];

/**
 * The suites run a second time through PgBouncer in transaction pooling (deploy/pgbouncer.ini), where
 * consecutive transactions of one connection may land on different server connections: sign-in
 * and sessions, two instances on one database, parallel account creation under transaction locks,
 * and the pooler's own checks. `npm run test:pgbouncer` runs the whole PostgreSQL pass that way.
 */
const PGBOUNCER_SUITES = [
  "tests/integration/ops/pgbouncer.test.ts",
  "tests/integration/auth/flows.test.ts",
  "tests/integration/ops/two-instances.test.ts",
  "tests/integration/provisioning/parallel-creates.test.ts",
];

/**
 * PostgreSQL suites whose promise is a wall-clock time (every instance served again within a second
 * of the database's return): their PostgreSQL run comes after both lanes, with nothing else on the
 * machine, so a busy neighbour lane never decides them. (On SQLite they are skipped, in the SQLite lane.)
 */
const TIMED_SUITES = ["tests/integration/reliability/database-outage.test.ts", "tests/integration/ops/load-balancer-outage.test.ts"];

/** `npm run test:pgbouncer`: only the PostgreSQL pass, all of it through PgBouncer. */
const pgbouncerFull = process.argv.includes("--pgbouncer-full");

/**
 * The throw-away PostgreSQL (and PgBouncer in front of it) of the PostgreSQL lane and of the timed
 * suites; null when no server can be started here and CI is unset (the pass is then skipped).
 */
async function startPostgres(say) {
  if (!process.env.CI && !findBinDir()) {
    say("PostgreSQL não encontrado: a passada no PostgreSQL foi pulada (o CI a exige)");
    return null;
  }
  try {
    const cluster = await startCluster();
    return { cluster, env: { TEST_DATABASE: "postgres", TEST_PG_URL: cluster.url, DATABASE_URL: cluster.url, TEST_PORTS: ports.postgres } };
  } catch (error) {
    say(`PostgreSQL não iniciou: ${error.message}`);
    // Where a server should exist (CI), not starting one fails the run instead of hiding the pass.
    if (process.env.CI) return { cluster: null, env: null };
    return null;
  }
}

/** PgBouncer in front of `postgres` (null: not installed here, outside CI), or throws why it did not start. */
async function startBouncer(postgres, say) {
  if (!process.env.CI && !findPgbouncer()) {
    say("PgBouncer não encontrado: a etapa pelo PgBouncer foi pulada (o CI a exige)");
    return null;
  }
  const bouncer = await startPgbouncer(postgres.cluster.url);
  return { bouncer, env: { ...postgres.env, TEST_PGBOUNCER_URL: bouncer.url, DATABASE_URL: bouncer.url } };
}

/** One runner's outcome: the label of its summary line, its JSON report (read at the end) and its exit status. */
const stages = [];
function stage(label, report, status) {
  stages.push({ label, report, status });
  return status;
}

/**
 * The SQLite lane: vitest (without the engine-neutral suites when the PostgreSQL lane runs them), then
 * Playwright: the longer lane. Its output is this process's own, as it happens.
 */
async function sqliteLane(neutralElsewhere) {
  const env = { TEST_PORTS: ports.sqlite };
  const args = vitestArgs(`${results}/vitest.json`);
  if (neutralElsewhere) for (const suite of ENGINE_NEUTRAL_SUITES) args.push("--exclude", suite);
  stage("vitest (SQLite)", `${results}/vitest.json`, await run("npx", args, env));
  stage("playwright", `${results}/playwright.json`, await run("npx", ["playwright", "test"], env));
}

/**
 * The PostgreSQL lane: the database-facing suites (neither engine-neutral nor timed), then
 * PGBOUNCER_SUITES through PgBouncer — or, with --pgbouncer-full, all of them through it — then the
 * engine-neutral suites on SQLite and eslint. Its output
 * goes to `log` (a file descriptor), printed whole once both lanes are done rather than interleaved.
 */
async function postgresLane(postgres, log, say) {
  const databaseSuites = (report) => {
    const args = vitestArgs(report, ["tests/integration", ...databaseUnitFiles()]);
    for (const suite of [...ENGINE_NEUTRAL_SUITES, ...TIMED_SUITES]) args.push("--exclude", suite);
    return args;
  };
  if (!pgbouncerFull) {
    stage(
      "vitest (PostgreSQL)",
      `${results}/vitest-pg.json`,
      await run("npx", databaseSuites(`${results}/vitest-pg.json`), postgres.env, log),
    );
  }
  let pooled;
  try {
    pooled = await startBouncer(postgres, say);
  } catch (error) {
    say(`PgBouncer não iniciou: ${error.message}`);
    stage("vitest (PostgreSQL pelo PgBouncer)", null, 1);
    pooled = null;
  }
  if (pooled !== null) {
    const report = `${results}/vitest-pgbouncer.json`;
    const args = pgbouncerFull ? databaseSuites(report) : vitestArgs(report, PGBOUNCER_SUITES);
    const label = `vitest (PostgreSQL pelo PgBouncer${pgbouncerFull ? ", todas as suítes" : ""})`;
    stage(label, report, await run("npx", args, pooled.env, log));
  }
  if (!pgbouncerFull) {
    // The engine-neutral suites on SQLite (their only run) and eslint: at the end of the shorter lane,
    // filling time the SQLite lane's Playwright leaves.
    const report = `${results}/vitest-neutral.json`;
    const files = ENGINE_NEUTRAL_SUITES.map((suite) => suite.replace(/\*\*$/, ""));
    stage("vitest (SQLite, suítes sem banco)", report, await run("npx", vitestArgs(report, files), { TEST_PORTS: ports.postgres }, log));
    await lint(log);
  }
  return pooled;
}

/** eslint: a promise nobody awaits is a query that never runs or runs after its transaction. */
async function lint(log) {
  stage("eslint", null, await run("npx", ["eslint", "src", "scripts", "tests", "db"], {}, log));
}

/** The timed suites on PostgreSQL, alone (through PgBouncer with --pgbouncer-full). */
async function timedSuites(postgres, pooled) {
  if (postgres?.env) {
    const report = `${results}/vitest-pg-timed.json`;
    const env = pgbouncerFull ? pooled?.env : postgres.env;
    if (env) stage("vitest (PostgreSQL, cronometradas)", report, await run("npx", vitestArgs(report, TIMED_SUITES), env));
  }
}

/** The build, printed when done and kept in test-results/build.log: a test reads it (no warning, in English or not, is left). */
function build() {
  console.log("\n==> npm run build");
  // The e2e tests follow 'Editar esta página', which exists only when the build has an edit address.
  const env = { ...process.env, EDIT_URL_BASE: process.env.EDIT_URL_BASE ?? "https://git.example.com/b1/hub/-/edit/main" };
  const result = spawnSync("npm", ["run", "build"], {
    encoding: "utf8",
    env,
    stdio: ["ignore", "pipe", "pipe"],
    maxBuffer: 256 * 1024 * 1024,
  });
  const output = (result.stdout ?? "") + (result.stderr ?? "");
  process.stdout.write(output);
  fs.writeFileSync(`${results}/build.log`, output);
  return result.status ?? 1;
}

if (build() !== 0) {
  console.log("\n0 passed, 1 failed (build)");
  process.exit(1);
}
const started = Date.now();
const seconds = (since) => `${((Date.now() - since) / 1000).toFixed(0)} s`;
for (const file of [
  "vitest.json",
  "vitest-neutral.json",
  "playwright.json",
  "vitest-pg.json",
  "vitest-pgbouncer.json",
  "vitest-pg-timed.json",
])
  fs.rmSync(path.join(results, file), { force: true });

// This process's own servers (the throw-away PostgreSQL, PgBouncer) take the PostgreSQL lane's ports.
process.env.TEST_PORTS = ports.postgres;
const postgresLog = path.join(results, "postgres-lane.log");
const log = fs.openSync(postgresLog, "w");
const say = (text) => fs.writeSync(log, `\n==> ${text}\n`);
const postgres = await startPostgres(say);
if (postgres && !postgres.env) stage("PostgreSQL", null, 1);
let pooled = null;
try {
  const lanes = [pgbouncerFull ? null : sqliteLane(Boolean(postgres?.env))];
  if (postgres?.env) {
    lanes.push(
      postgresLane(postgres, log, say).then((result) => {
        pooled = result;
        console.log(`\n==> Passada no PostgreSQL terminada em ${seconds(started)} (a saída dela vem no fim)`);
      }),
    );
  } else if (!pgbouncerFull) {
    lanes.push(lint(log));
  }
  await Promise.all(lanes);
  console.log(`\n==> As duas faixas terminaram em ${seconds(started)}; agora as suítes cronometradas, sozinhas`);
  await timedSuites(postgres, pooled);
} finally {
  // Timed: the end of a CI run once waited ~20 s here (the server's data of a whole pass is deleted).
  const stopping = Date.now();
  await pooled?.bouncer.stop();
  await postgres?.cluster?.stop();
  if (postgres?.cluster) say(`PostgreSQL descartável parado e apagado em ${seconds(stopping)}`);
  fs.closeSync(log);
}
console.log(`\n==> Saída da passada no PostgreSQL (${postgresLog})`);
process.stdout.write(fs.readFileSync(postgresLog, "utf8"));

let passed = 0;
let failed = 0;
let skipped = 0;
const summary = [];
for (const { label, report: file, status } of stages) {
  const report = file === null ? null : readJson(file);
  const isPlaywright = label === "playwright";
  const ok = isPlaywright ? (report?.stats?.expected ?? 0) + (report?.stats?.flaky ?? 0) : (report?.numPassedTests ?? 0);
  const bad = isPlaywright ? (report?.stats?.unexpected ?? 0) : (report?.numFailedTests ?? 0);
  passed += ok;
  failed += bad;
  skipped += isPlaywright ? (report?.stats?.skipped ?? 0) : (report?.numPendingTests ?? 0);
  // A runner that died without a report (or eslint, which has none) still fails the run.
  if (status !== 0 && bad === 0) failed += 1;
  if (file !== null)
    summary.push(
      `${label}: ${ok} passed, ${bad}${status !== 0 && bad === 0 ? " (+1: um arquivo que não carregou, ou o executor saiu sem relatório)" : ""} failed`,
    );
  else if (status !== 0) summary.push(`${label}: falhou`);
  const lines = failureReport(report);
  if (lines.length > 0) console.log(`\n==> Falhas (${label}):\n${lines.join("\n")}`);
  // What the server under Playwright did while each failed test ran (playwright.config.ts keeps its log).
  const serverLog = path.join(results, "e2e-run", "server.log");
  if (isPlaywright && report?.stats?.unexpected && fs.existsSync(serverLog)) {
    const during = serverLogDuring(report, fs.readFileSync(serverLog, "utf8"));
    if (during.length > 0) console.log(`\n==> Servidor durante as falhas (Playwright):\n${during.join("\n")}`);
  }
}
if (postgres === null) summary.push("vitest (PostgreSQL): pulado, nenhum servidor PostgreSQL pôde ser iniciado aqui");
else if (postgres.env && pooled === null && !stages.some((entry) => entry.label.includes("PgBouncer")))
  summary.push("vitest (PostgreSQL pelo PgBouncer): pulado, PgBouncer não encontrado");
console.log(`\n${summary.join("\n")}`);
console.log(`Testes em ${seconds(started)} depois do build.`);
console.log(`Tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 ? 1 : 0);
