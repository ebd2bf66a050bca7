/**
 * Production entry: `node --disable-proto=throw dist/gate/main.mjs` (bundled by scripts/build-server.ts;
 * harden.ts, imported first, does the same where the flag was left out).
 * Opens and migrates the database, loads the built site into memory and serves it through
 * the gate, which hands API requests to the Astro adapter's handler.
 */
import "./harden.ts";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { scheduleMaintenance } from "./maintenance.ts";
import { config } from "../lib/server/config/config.ts";
import { closeDatabase, engineOfDb, getMigratedDb, MIGRATIONS_DIR, PG_MIGRATIONS_DIR } from "../lib/server/data/db.ts";
import { logger } from "../lib/server/platform/logger.ts";
import { seedDatabase } from "../lib/server/data/seed.ts";
import { freeReserve, keepReserve, reserveFileOf } from "../lib/server/platform/disk-reserve.ts";
import { pidFileOf, removePidFile, writePidFile } from "../lib/server/platform/server-pid.ts";
import { loadAssets, loadPages } from "../lib/server/content/static-files.ts";
import { loadSearchBundles } from "../lib/server/content/search-files.ts";
import { loadDownloads } from "../lib/server/content/download-files.ts";
import { startCountingTallies } from "../lib/server/reading/tallies.ts";
import { createInsightsCollector } from "../lib/server/insights/collector.ts";
import { pageVersions } from "../lib/server/insights/page-versions.ts";
import { applySignInMethods } from "../lib/auth/sign-in-methods.ts";
import { createConnectionKeeper } from "./connections.ts";
import {
  createIdleCollector,
  IDLE_CHECK_EVERY_MS,
  IDLE_COLLECT_AFTER_MS,
  IDLE_COLLECT_MIN_GROWTH_BYTES,
  lastResortCollection,
} from "./idle-memory.ts";
import { createGate, type AppHandler } from "./gate.ts";
import { responseFlow } from "./response-flow.ts";
import { createHealthResponder, createReadinessCheck, HEALTH_PATHS, markShuttingDown } from "./observability/health.ts";
import { createObservedListener } from "./observability/listener.ts";
import { createMetrics } from "./observability/metrics.ts";
import { createMetricsResponder, startMetricsServer } from "./observability/metrics-endpoint.ts";
import { createRouteClassifier } from "./observability/route-class.ts";
import { readObservabilitySettings } from "./observability/settings.ts";
import { installBenchHooks } from "./bench-hooks.ts";
import { registerAuditStreamMetric } from "./observability/audit-stream-metric.ts";
import { lagWarnings } from "../lib/server/audit/stream/deliverer.ts";
import { startAuditStreamOffThread } from "../lib/server/audit/stream/off-thread.ts";
import { distDir, readSetting } from "../lib/settings.ts";

const dist = distDir();
let cfg: ReturnType<typeof config>;
try {
  cfg = config();
} catch (error) {
  // A setting that cannot work (PUBLIC_URL, SMTP_URL) stops the start with one Portuguese line, not a stack.
  console.error(`Configuração inválida: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
const observability = readObservabilitySettings();
if (!observability.ok) {
  console.error(`Configuração inválida: ${observability.error}`);
  process.exit(1);
}
const { shutdownDrainMs, metricsToken, metricsPort, readinessMinFreeBytes } = observability.settings;
// Every instance migrates and seeds at start; both are idempotent and, on PostgreSQL, serialised
// (the migrator's lock, the seed's advisory lock).
const onSqlite = !/^postgres(ql)?:/i.test(cfg.databaseUrl);
let db: Awaited<ReturnType<typeof getMigratedDb>>;
try {
  db = await getMigratedDb();
} catch (error) {
  // A full disk (SQLite cannot create its shared-memory index): the reserve makes room, and the database opens.
  if (!onSqlite || !freeReserve(cfg.databasePath)) throw error;
  console.error(
    `Aviso: o banco não abriu (${(error as { code?: string }).code ?? String(error)}; disco cheio?); ` +
      `a reserva de espaço ${reserveFileOf(cfg.databasePath)} foi liberada para abri-lo; libere espaço no disco`,
  );
  db = await getMigratedDb();
}
const engine = engineOfDb(db);
if (engine === "sqlite") {
  const refused = keepReserve(cfg.databasePath);
  if (refused !== null)
    console.error(
      `Aviso: a reserva de espaço ${reserveFileOf(cfg.databasePath)} não foi gravada (${refused === "ENOSPC" ? "disco cheio" : refused}); ` +
        `um reinício com o disco cheio pode não abrir o banco`,
    );
}
await seedDatabase(db);

const { handler } = (await import(pathToFileURL(path.join(dist, "server", "entry.mjs")).href)) as { handler: AppHandler };

const appHandler: AppHandler = (req, res, next, locals) => handler(req, res, next, { ...locals, responseFlow: responseFlow(res) });
const pages = loadPages(path.join(dist, "pages"), (html) =>
  applySignInMethods(html, { ssoLabel: cfg.oidc?.buttonLabel ?? null, password: cfg.passwordAuth }),
);
const assets = loadAssets(path.join(dist, "client"));
const downloads = loadDownloads(dist);
const metrics = createMetrics({ db, pages });
const insights = createInsightsCollector({ db, enabled: cfg.insights, timeZone: cfg.tzDisplay, versions: pageVersions(pages) });
const gate = createGate({
  db,
  config: cfg,
  assets,
  pages,
  search: loadSearchBundles(path.join(dist, "search")),
  downloads,
  appHandler,
  observeSessionCheck: metrics.observeSessionCheck,
  insights,
});

await scheduleMaintenance(
  db,
  cfg.auditRetentionDays,
  cfg.auditRetentionIntervalMs,
  cfg.readingDigest ? { publicUrl: cfg.publicUrl, timeZone: cfg.tzDisplay } : null,
  // Retention runs even with INSIGHTS=false: what was collected before still ages out.
  { retentionDays: cfg.insightsRetentionDays, timeZone: cfg.tzDisplay },
);

// Audit streaming to the company's SIEM (AUDIT_WEBHOOK_URL, AUDIT_SYSLOG_URL): one loop per destination,
// on a worker thread with connections of its own (off-thread.ts), so serving pages never waits for it.
const auditStream = await startAuditStreamOffThread(
  db,
  {
    engine,
    target: cfg.databaseUrl,
    databasePath: cfg.databasePath,
    // As the server's own pool (db.ts getDb): each wait at most half the request timeout.
    limits: { connectMs: Math.ceil(cfg.requestTimeoutMs / 2), statementMs: Math.ceil(cfg.requestTimeoutMs / 2) },
    settings: cfg.auditStream,
  },
  logger(),
);
registerAuditStreamMetric(metrics.registry, auditStream);

// The required-reading report's totals are counted now (seconds at 100,000 people), not at its first visit.
startCountingTallies(db);

const checkReadiness = createReadinessCheck({
  database: engine === "sqlite" ? { engine, path: cfg.databasePath, minFreeBytes: readinessMinFreeBytes } : { engine, db },
  migrationsDir: engine === "sqlite" ? MIGRATIONS_DIR : PG_MIGRATIONS_DIR,
  pagesLoaded: () => pages.has("/") && pages.has("/500") && pages.has("/503"),
});
const listener = createObservedListener({
  gate,
  respondToHealthProbe: createHealthResponder(checkReadiness, async () => lagWarnings(await auditStream.states())),
  logger: logger(),
  trustProxy: cfg.trustProxy,
  metrics,
  classifyRoute: createRouteClassifier(
    // Downloads are files too (their metrics sit with the assets).
    (urlPath) => assets.has(urlPath) || downloads.has(urlPath),
    (urlPath) => pages.has(urlPath),
  ),
  respondWithMetrics: metricsToken ? createMetricsResponder(metrics.registry, metricsToken, logger()) : undefined,
});

// The memory a burst of load leaves behind goes back to the system once requests stop (idle-memory.ts).
const idleCollector = createIdleCollector({
  idleMs: IDLE_COLLECT_AFTER_MS,
  minGrowthBytes: IDLE_COLLECT_MIN_GROWTH_BYTES,
  residentBytes: () => process.memoryUsage.rss(),
  collect: lastResortCollection(),
  now: Date.now,
});
setInterval(() => idleCollector.check(), IDLE_CHECK_EVERY_MS).unref();

const connections = createConnectionKeeper((req, res) => {
  if (!HEALTH_PATHS.has((req.url ?? "").split("?", 1)[0]!)) idleCollector.touch();
  listener(req, res);
});
// A slow client cannot hold a request open: Node answers 408 past requestTimeout (checked every second).
const server = http.createServer(
  {
    keepAliveTimeout: 65_000,
    requestTimeout: cfg.requestTimeoutMs,
    headersTimeout: Math.min(20_000, cfg.requestTimeoutMs),
    connectionsCheckingInterval: 1000,
  },
  connections.listener,
);
connections.attach(server);

// Node's HTTP parser refuses malformed, oversized or stalled requests before the gate sees them;
// its default answer is an empty body, so the refusal is written here in Portuguese.
const PARSER_REFUSALS: Record<string, [number, string, string]> = {
  HPE_HEADER_OVERFLOW: [431, "Request Header Fields Too Large", "Endereço ou cabeçalhos grandes demais"],
  ERR_HTTP_REQUEST_TIMEOUT: [408, "Request Timeout", "Tempo esgotado ao receber a requisição"],
};
server.on("clientError", (error: NodeJS.ErrnoException, socket) => {
  if (!socket.writable || error.code === "ECONNRESET") return socket.destroy();
  const [status, reason, message] = PARSER_REFUSALS[error.code ?? ""] ?? [400, "Bad Request", "Requisição malformada"];
  const body = JSON.stringify({ error: message });
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
});

server.listen(cfg.port, cfg.host, () => {
  // The pid file guards the SQLite file against db:restore; PostgreSQL has no file of ours to guard.
  if (engine === "sqlite") keepPidFile();
  const { address, port } = server.address() as AddressInfo;
  // The address people open is PUBLIC_URL's; where the socket listens is added when a browser could not use it.
  const listening = `${address.includes(":") ? `[${address}]` : address}:${port}`;
  const reachable = cfg.acceptedOrigins.includes(new URL(`http://${listening}`).origin);
  console.log(`B1 Method Hub no ar em ${cfg.publicUrl}${reachable ? "" : ` (escutando em ${listening})`}`);
  console.log(`Banco de dados: ${engine === "sqlite" ? cfg.databasePath : `PostgreSQL (${new URL(cfg.databaseUrl).host})`}`);
});

/** How often a pid file that could not be written (a full disk) is tried again. */
const PID_FILE_RETRY_MS = 5_000;
/**
 * Writes the pid file; on a full disk (or a folder that refuses) the portal still serves: one line says
 * so, and the write is tried again every PID_FILE_RETRY_MS until it succeeds (the space came back).
 */
function keepPidFile(): void {
  const refused = writePidFile(cfg.databasePath);
  if (refused === null) return;
  console.error(
    `Aviso: o arquivo de pid ${pidFileOf(cfg.databasePath)} não foi gravado (${refused === "ENOSPC" ? "disco cheio" : refused}); ` +
      `o portal segue servindo, mas o db:restore não saberá que ele está no ar até o arquivo ser gravado ` +
      `(nova tentativa a cada ${PID_FILE_RETRY_MS / 1000} s)`,
  );
  const retry = setInterval(() => {
    if (stopping) return clearInterval(retry);
    if (writePidFile(cfg.databasePath) !== null) return;
    clearInterval(retry);
    console.log(`Arquivo de pid ${pidFileOf(cfg.databasePath)} gravado`);
  }, PID_FILE_RETRY_MS);
  retry.unref();
}

const metricsServer = metricsPort === null ? undefined : startMetricsServer(metrics.registry, metricsPort, logger());

/**
 * Graceful stop: /readyz turns 503 first (the balancer drains the instance during SHUTDOWN_DRAIN_MS)
 * and every answer during the drain closes its connection; then no new connections (connections.ts:
 * answers keep their connections until the listener closed on a quiet accept queue); in-flight requests
 * (an export included) finish within SHUTDOWN_TIMEOUT_MS, idle keep-alive connections close after a
 * short grace (see connections.ts), then the database closes.
 */
let stopping = false;
function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  markShuttingDown();
  connections.answerWithClose();
  console.log(`${signal} recebido: encerrando depois das requisições em andamento…`);
  let finished = false;
  const finish = (code: number) => {
    if (finished) return;
    finished = true;
    metricsServer?.close();
    if (engine === "sqlite") removePidFile(cfg.databasePath);
    // The last interval's Insights sums are written before the database closes (a SIGKILL loses at most
    // FLUSH_INTERVAL_MS); the delivery loops give their leases up (another instance takes over at once);
    // a send in flight is not awaited long.
    void Promise.allSettled([insights.stop(), Promise.race([auditStream.stop(), new Promise((resolve) => setTimeout(resolve, 2000))])])
      .then(() => closeDatabase(db))
      .finally(() => process.exit(code));
  };
  setTimeout(() => {
    void connections.stop(server).then(() => finish(0));
    setTimeout(() => {
      console.error(`Encerramento: requisições ainda abertas após ${cfg.shutdownTimeoutMs} ms foram interrompidas`);
      server.closeAllConnections();
      finish(1);
    }, cfg.shutdownTimeoutMs).unref();
  }, shutdownDrainMs);
}

installBenchHooks(insights, readSetting("B1_BENCH_TOGGLE_INSIGHTS"));
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => shutdown(signal));
