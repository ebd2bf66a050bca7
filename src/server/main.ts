/**
 * Production entry: `node dist/gate/main.mjs` (bundled by scripts/build-server.mjs).
 * Opens and migrates the database, loads the built site into memory and serves it through
 * the gate, which hands API requests to the Astro adapter's handler.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { scheduleAuditRetention } from "../lib/server/audit-retention.ts";
import { config } from "../lib/server/config.ts";
import { getDb } from "../lib/server/db.ts";
import { removePidFile, writePidFile } from "../lib/server/server-pid.ts";
import { loadAssets, loadPages } from "../lib/server/static-files.ts";
import { loadSearchBundles } from "../lib/server/search-files.ts";
import { createGate, type AppHandler } from "./gate.ts";

const dist = path.resolve(process.env.B1_DIST_DIR ?? "dist");
const cfg = config();
const db = getDb();

const { handler } = (await import(pathToFileURL(path.join(dist, "server", "entry.mjs")).href)) as { handler: AppHandler };

// Astro writes a streamed body without waiting for the socket; endpoints that stream (the audit
// CSV) await this between chunks so a slow client holds the producer, not the server's memory.
const clientDrained = (res: http.ServerResponse) => () =>
  new Promise<void>((resolve) => {
    if (!res.writableNeedDrain || res.destroyed) return resolve();
    const done = () => {
      res.off("drain", done).off("close", done);
      resolve();
    };
    res.on("drain", done).on("close", done);
  });
const appHandler: AppHandler = (req, res, next, locals) => handler(req, res, next, { ...locals, clientDrained: clientDrained(res) });
const gate = createGate({
  db,
  config: cfg,
  assets: loadAssets(path.join(dist, "client")),
  pages: loadPages(path.join(dist, "pages")),
  search: loadSearchBundles(path.join(dist, "search")),
  appHandler,
});

if (cfg.auditRetentionDays) scheduleAuditRetention(db, cfg.auditRetentionDays, cfg.auditRetentionIntervalMs);

const server = http.createServer({ keepAliveTimeout: 65_000 }, gate);

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
  writePidFile(cfg.databasePath);
  const { port } = server.address() as AddressInfo;
  console.log(`B1 Method Hub no ar em http://${cfg.host === "0.0.0.0" ? "localhost" : cfg.host}:${port}`);
  console.log(`Banco de dados: ${cfg.databasePath}`);
});

/**
 * Graceful stop: no new connections, in-flight requests (an export included) finish within
 * SHUTDOWN_TIMEOUT_MS, keep-alive sockets close as soon as they go idle, then the database closes.
 */
let stopping = false;
function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  console.log(`${signal} recebido: encerrando depois das requisições em andamento…`);
  const finish = (code: number) => {
    db.$client.close();
    removePidFile(cfg.databasePath);
    process.exit(code);
  };
  server.close(() => finish(0));
  const idleSweep = setInterval(() => server.closeIdleConnections(), 50);
  idleSweep.unref();
  setTimeout(() => {
    console.error(`Encerramento: requisições ainda abertas após ${cfg.shutdownTimeoutMs} ms foram interrompidas`);
    server.closeAllConnections();
    finish(1);
  }, cfg.shutdownTimeoutMs).unref();
}

for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => shutdown(signal));
