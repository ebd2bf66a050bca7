import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import type { Logger } from "pino";
import { HEALTH_PATHS } from "./health.ts";
import type { Metrics } from "./metrics.ts";
import { beginRequest, type RequestContext } from "./request-context.ts";
import type { RouteClass } from "./route-class.ts";

export interface ObservedListenerOptions {
  /** The gate's request listener: everything not answered here goes to it. */
  gate: RequestListener;
  respondToHealthProbe: (req: IncomingMessage, res: ServerResponse, path: string) => Promise<void>;
  logger: Logger;
  /** Keep a proxy's `X-Request-Id` (only behind a proxy that sets it). */
  trustProxy: boolean;
  metrics?: Metrics;
  classifyRoute?: (path: string | null) => RouteClass;
  /** Answers `/metrics` on this port (set only when METRICS_TOKEN is); otherwise the gate 404s it. */
  respondWithMetrics?: (req: IncomingMessage, res: ServerResponse) => void;
}

const SIGN_IN_PATH = "/api/auth/sign-in";

/** The path part of the raw URL, for the exact matches answered before the gate. */
function rawPathOf(url: string): string {
  const queryStart = url.indexOf("?");
  return queryStart === -1 ? url : url.slice(0, queryStart);
}

/**
 * One line per request, written when the response is done: never headers, cookies, bodies or the
 * query string (reset and confirmation links carry their token there).
 */
function logRequest(
  logger: Logger,
  req: IncomingMessage,
  res: ServerResponse,
  context: RequestContext,
  seconds: number,
  bytes: number,
  quiet: boolean,
) {
  const line = {
    reqId: context.id,
    method: req.method,
    path: context.path,
    status: res.statusCode,
    durationMs: Math.round(seconds * 1e5) / 100,
    bytes,
    userId: context.userId ?? undefined,
    aborted: res.writableFinished ? undefined : true,
  };
  if (quiet) logger.debug(line, "requisição");
  else logger.info(line, "requisição");
}

/**
 * Wraps the gate: assigns the request id, answers health probes (and `/metrics` with its token)
 * before it, and logs and measures every request once its response is done.
 */
export function createObservedListener(options: ObservedListenerOptions): RequestListener {
  const { gate, respondToHealthProbe, logger, trustProxy, metrics, classifyRoute, respondWithMetrics } = options;

  function finish(req: IncomingMessage, res: ServerResponse, context: RequestContext, bytesBefore: number, quiet: boolean) {
    const seconds = Number(process.hrtime.bigint() - context.startedAt) / 1e9;
    // Bytes written to the socket for this response, headers included (one response at a time per connection).
    logRequest(logger, req, res, context, seconds, req.socket.bytesWritten - bytesBefore, quiet);
    if (!metrics) return;
    metrics.observeRequest(classifyRoute?.(context.path) ?? "other", res.statusCode, seconds);
    if (context.path === SIGN_IN_PATH && req.method === "POST") metrics.observeSignIn(res.statusCode);
  }

  return function observedListener(req: IncomingMessage, res: ServerResponse): void {
    const context = beginRequest(req, trustProxy);
    res.setHeader("X-Request-Id", context.id);
    const rawPath = rawPathOf(req.url ?? "/");
    const probe = HEALTH_PATHS.has(rawPath);
    const scrape = rawPath === "/metrics" && respondWithMetrics !== undefined;
    const bytesBefore = req.socket.bytesWritten;
    res.once("close", () => finish(req, res, context, bytesBefore, (probe || scrape) && res.statusCode < 400));
    if (probe || scrape) context.path = rawPath;
    if (probe) {
      respondToHealthProbe(req, res, rawPath).catch(() => res.destroy());
      return;
    }
    if (scrape) return respondWithMetrics(req, res);
    gate(req, res);
  };
}
