import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import type { Logger } from "pino";
import { HEALTH_PATHS } from "./health.ts";
import type { Metrics } from "./metrics.ts";
import { createRequestLog } from "../../lib/server/platform/logger.ts";
import { beginRequest, requestContextOf } from "./request-context.ts";
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
 * Wraps the gate: assigns the request id, answers health probes (and `/metrics` with its token)
 * before it, and logs and measures every request once its response is done. The gate sends
 * `X-Request-Id` with its own headers (set here first, node would rebuild every header it writes
 * through the slower setHeader path); the answers given here set it themselves.
 */
export function createObservedListener(options: ObservedListenerOptions): RequestListener {
  const { gate, respondToHealthProbe, logger, trustProxy, metrics, classifyRoute, respondWithMetrics } = options;
  const logRequest = createRequestLog(logger);

  /**
   * One line per request, written when the response is done: never headers, cookies, bodies or
   * the query string (reset and confirmation links carry their token there). One function for
   * every response (`this`), not a closure per request.
   */
  function onResponseClose(this: ServerResponse): void {
    const req = this.req;
    const context = requestContextOf(req)!;
    const seconds = (performance.now() - context.startedAt) / 1000;
    context.status = this.statusCode;
    context.durationMs = Math.round(seconds * 1e5) / 100;
    // Bytes written to the socket for this response, headers included (one response at a time per connection).
    // A request whose stream was destroyed may have lost its socket by now: then nothing is counted.
    const socket = req.socket as typeof req.socket | null;
    context.bytes = socket ? socket.bytesWritten - context.bytesBefore : 0;
    context.aborted = !this.writableFinished;
    context.quiet &&= this.statusCode < 400;
    logRequest(context);
    if (!metrics) return;
    metrics.observeRequest(classifyRoute?.(context.path) ?? "other", this.statusCode, seconds);
    if (context.path === SIGN_IN_PATH && context.method === "POST") metrics.observeSignIn(this.statusCode);
  }

  return function observedListener(req: IncomingMessage, res: ServerResponse): void {
    const context = beginRequest(req, trustProxy);
    res.on("close", onResponseClose);
    const rawPath = rawPathOf(req.url ?? "/");
    const probe = HEALTH_PATHS.has(rawPath);
    const scrape = rawPath === "/metrics" && respondWithMetrics !== undefined;
    if (!probe && !scrape) return gate(req, res);
    context.path = rawPath;
    context.quiet = true;
    res.setHeader("X-Request-Id", context.id);
    if (probe) {
      respondToHealthProbe(req, res, rawPath).catch(() => res.destroy());
      return;
    }
    respondWithMetrics!(req, res);
  };
}
