// `npm test`: build once, run vitest then Playwright on SQLite, then the database-facing vitest
// suites again on a throw-away PostgreSQL, and print one summary line CI can read.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { findBinDir, startCluster } from "./pg-cluster.mjs";
import { findPgbouncer, startPgbouncer } from "./pgbouncer.mjs";
import { failureReport, serverLogDuring } from "./test-report.mjs";

const results = "test-results";
fs.mkdirSync(results, { recursive: true });

function run(command, args, env = {}) {
  console.log(`\n==> ${command} ${args.join(" ")}`);
  return spawnSync(command, args, { stdio: "inherit", env: { ...process.env, ...env }, shell: process.platform === "win32" }).status ?? 1;
}

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
 * the PostgreSQL pass skips them (they ran once, on SQLite).
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

/** `npm run test:pgbouncer`: only the PostgreSQL pass, all of it through PgBouncer. */
const pgbouncerFull = process.argv.includes("--pgbouncer-full");

/**
 * Runs the database-facing suites on PostgreSQL, then PGBOUNCER_SUITES through PgBouncer (into
 * `pooledReport`; skipped where pgbouncer is not installed, except in CI); null when no server can
 * be started here (and CI is unset).
 */
async function runPostgresPass(report, pooledReport) {
  fs.rmSync(report, { force: true });
  fs.rmSync(pooledReport, { force: true });
  if (!process.env.CI && !findBinDir()) {
    console.log("\n==> PostgreSQL não encontrado: a passada no PostgreSQL foi pulada (o CI a exige)");
    return null;
  }
  let cluster;
  try {
    cluster = await startCluster();
  } catch (error) {
    console.log(`\n==> PostgreSQL não iniciou: ${error.message}`);
    // Where a server should exist (CI), not starting one fails the run instead of hiding the pass.
    return process.env.CI ? { status: 1, pooled: null } : null;
  }
  const env = { TEST_DATABASE: "postgres", TEST_PG_URL: cluster.url, DATABASE_URL: cluster.url };
  let bouncer;
  let status = 0;
  try {
    if (!pgbouncerFull) {
      const args = vitestArgs(report, ["tests/integration", ...databaseUnitFiles()]);
      for (const suite of ENGINE_NEUTRAL_SUITES) args.push("--exclude", suite);
      status = run("npx", args, env);
    }
    if (!process.env.CI && !findPgbouncer()) {
      console.log("\n==> PgBouncer não encontrado: a etapa pelo PgBouncer foi pulada (o CI a exige)");
      return { status, pooled: null };
    }
    bouncer = await startPgbouncer(cluster.url);
    const pooledArgs = pgbouncerFull
      ? vitestArgs(pooledReport, ["tests/integration", ...databaseUnitFiles()])
      : vitestArgs(pooledReport, PGBOUNCER_SUITES);
    if (pgbouncerFull) for (const suite of ENGINE_NEUTRAL_SUITES) pooledArgs.push("--exclude", suite);
    const pooled = run("npx", pooledArgs, { ...env, TEST_PGBOUNCER_URL: bouncer.url, DATABASE_URL: bouncer.url });
    return { status, pooled };
  } catch (error) {
    console.log(`\n==> PgBouncer não iniciou: ${error.message}`);
    return { status, pooled: 1 };
  } finally {
    // Timed: the end of the last CI run waited ~20 s here (the server's data of a whole pass is deleted).
    const stopping = Date.now();
    await bouncer?.stop();
    await cluster.stop();
    console.log(`\n==> PostgreSQL descartável parado e apagado em ${((Date.now() - stopping) / 1000).toFixed(1)} s`);
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

// A promise nobody awaits is a query that never runs or runs after its transaction: checked first.
// `--pgbouncer-full` (npm run test:pgbouncer): the PostgreSQL pass only, through PgBouncer.
const lintStatus = pgbouncerFull ? 0 : run("npx", ["eslint", "src", "scripts", "tests", "db"]);
const vitestStatus = pgbouncerFull ? 0 : run("npx", vitestArgs(`${results}/vitest.json`));
const playwrightStatus = pgbouncerFull ? 0 : run("npx", ["playwright", "test"]);
if (pgbouncerFull) for (const file of ["vitest.json", "playwright.json"]) fs.rmSync(`${results}/${file}`, { force: true });
const postgres = await runPostgresPass(`${results}/vitest-pg.json`, `${results}/vitest-pgbouncer.json`);

const vitest = readJson(`${results}/vitest.json`);
const playwright = readJson(`${results}/playwright.json`);
const vitestPg = postgres === null || pgbouncerFull ? null : readJson(`${results}/vitest-pg.json`);
const vitestPooled = postgres?.pooled === null || postgres === null ? null : readJson(`${results}/vitest-pgbouncer.json`);

const reports = [vitest, vitestPg, vitestPooled];
const passed =
  reports.reduce((sum, report) => sum + (report?.numPassedTests ?? 0), 0) +
  (playwright?.stats?.expected ?? 0) +
  (playwright?.stats?.flaky ?? 0);
let failed = reports.reduce((sum, report) => sum + (report?.numFailedTests ?? 0), 0) + (playwright?.stats?.unexpected ?? 0);
const skipped = reports.reduce((sum, report) => sum + (report?.numPendingTests ?? 0), 0) + (playwright?.stats?.skipped ?? 0);
// A runner that died without a report still fails the run.
if (lintStatus !== 0) failed += 1;
if (vitestStatus !== 0 && !vitest?.numFailedTests) failed += 1;
if (playwrightStatus !== 0 && !playwright?.stats?.unexpected) failed += 1;
if (postgres !== null && postgres.status !== 0 && !vitestPg?.numFailedTests) failed += 1;
if (postgres !== null && postgres.pooled !== null && postgres.pooled !== 0 && !vitestPooled?.numFailedTests) failed += 1;

for (const [label, report] of [
  ["vitest SQLite", vitest],
  ["Playwright", playwright],
  ["vitest PostgreSQL", vitestPg],
  ["vitest PostgreSQL pelo PgBouncer", vitestPooled],
]) {
  const lines = failureReport(report);
  if (lines.length > 0) console.log(`\n==> Falhas (${label}):\n${lines.join("\n")}`);
}
// What the server under Playwright did while each failed test ran (playwright.config.ts keeps its log).
const serverLog = path.join(results, "e2e-run", "server.log");
if (playwright?.stats?.unexpected && fs.existsSync(serverLog)) {
  const lines = serverLogDuring(playwright, fs.readFileSync(serverLog, "utf8"));
  if (lines.length > 0) console.log(`\n==> Servidor durante as falhas (Playwright):\n${lines.join("\n")}`);
}

if (!pgbouncerFull) {
  console.log(`\nvitest (SQLite): ${vitest?.numPassedTests ?? 0} passed, ${vitest?.numFailedTests ?? 0} failed`);
  console.log(`playwright: ${playwright?.stats?.expected ?? 0} passed, ${playwright?.stats?.unexpected ?? 0} failed`);
  console.log(
    postgres === null
      ? "vitest (PostgreSQL): pulado, nenhum servidor PostgreSQL pôde ser iniciado aqui"
      : `vitest (PostgreSQL): ${vitestPg?.numPassedTests ?? 0} passed, ${vitestPg?.numFailedTests ?? 0} failed`,
  );
}
console.log(
  postgres === null || postgres.pooled === null
    ? "vitest (PostgreSQL pelo PgBouncer): pulado, PgBouncer não encontrado"
    : `vitest (PostgreSQL pelo PgBouncer${pgbouncerFull ? ", todas as suítes" : ""}): ${vitestPooled?.numPassedTests ?? 0} passed, ${vitestPooled?.numFailedTests ?? 0} failed`,
);
console.log(`Tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 ? 1 : 0);
