import { createHash, timingSafeEqual } from "node:crypto";
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Logger } from "pino";
import type { Registry } from "prom-client";

function digest(text: string): Buffer {
  return createHash("sha256").update(text).digest();
}

/** Constant-time comparison of `Authorization: Bearer <token>` (hashing evens out the lengths). */
export function hasBearerToken(req: IncomingMessage, token: string): boolean {
  const header = req.headers.authorization ?? "";
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match !== null && timingSafeEqual(digest(match[1]!), digest(token));
}

function plain(res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}) {
  res.writeHead(status, {
    "Content-Type": "text/plain; charset=utf-8",
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
    ...headers,
  });
  res.end(`${text}\n`);
}

async function writeMetrics(registry: Registry, req: IncomingMessage, res: ServerResponse) {
  if (req.method !== "GET" && req.method !== "HEAD") return plain(res, 405, "método não permitido", { Allow: "GET, HEAD" });
  const body = await registry.metrics();
  res.writeHead(200, { "Content-Type": registry.contentType, "Cache-Control": "no-store" });
  res.end(req.method === "HEAD" ? undefined : body);
}

/** A failed collection is logged once and answered with a short 500. */
function serveMetrics(registry: Registry, logger: Logger, req: IncomingMessage, res: ServerResponse): void {
  writeMetrics(registry, req, res).catch((error: unknown) => {
    logger.error({ err: error }, "falha ao coletar métricas");
    if (!res.headersSent) plain(res, 500, "falha ao coletar métricas");
  });
}

/**
 * `/metrics` on the main port: only with the bearer token, whatever address the request comes
 * from (behind a reverse proxy every request comes from loopback).
 */
export function createMetricsResponder(registry: Registry, token: string, logger: Logger) {
  return function respondWithMetrics(req: IncomingMessage, res: ServerResponse): void {
    if (!hasBearerToken(req, token)) return plain(res, 401, "não autorizado", { "WWW-Authenticate": 'Bearer realm="metrics"' });
    serveMetrics(registry, logger, req, res);
  };
}

/** A separate listener on 127.0.0.1 only (never HOST), serving `/metrics` without a token. */
export function startMetricsServer(registry: Registry, port: number, logger: Logger): http.Server {
  const server = http.createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0];
    if (path !== "/metrics") return plain(res, 404, "não encontrado");
    serveMetrics(registry, logger, req, res);
  });
  server.listen(port, "127.0.0.1", () => {
    const address = server.address() as AddressInfo;
    logger.info({ host: address.address, port: address.port }, "métricas no ar");
  });
  return server;
}
