import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import type { Logger } from "pino";
import { HEALTH_PATHS } from "./health.ts";
import { beginRequest, type RequestContext } from "./request-context.ts";

export interface ObservedListenerOptions {
  /** The gate's request listener: everything not answered here goes to it. */
  gate: RequestListener;
  respondToHealthProbe: (req: IncomingMessage, res: ServerResponse, path: string) => void;
  logger: Logger;
  /** Keep a proxy's `X-Request-Id` (only behind a proxy that sets it). */
  trustProxy: boolean;
}

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
  bytesBefore: number,
  probe: boolean,
) {
  const line = {
    reqId: context.id,
    method: req.method,
    path: context.path,
    status: res.statusCode,
    durationMs: Math.round(Number(process.hrtime.bigint() - context.startedAt) / 1e4) / 100,
    bytes: req.socket.bytesWritten - bytesBefore,
    userId: context.userId ?? undefined,
    aborted: res.writableFinished ? undefined : true,
  };
  if (probe) logger.debug(line, "requisição");
  else logger.info(line, "requisição");
}

/** Wraps the gate: assigns the request id, answers health probes before it and logs every request. */
export function createObservedListener(options: ObservedListenerOptions): RequestListener {
  const { gate, respondToHealthProbe, logger, trustProxy } = options;
  return function observedListener(req: IncomingMessage, res: ServerResponse): void {
    const context = beginRequest(req, trustProxy);
    res.setHeader("X-Request-Id", context.id);
    const rawPath = rawPathOf(req.url ?? "/");
    const probe = HEALTH_PATHS.has(rawPath);
    // Bytes written to the socket for this response, headers included (one response at a time per connection).
    const bytesBefore = req.socket.bytesWritten;
    res.once("close", () => logRequest(logger, req, res, context, bytesBefore, probe));
    if (probe) {
      context.path = rawPath;
      return respondToHealthProbe(req, res, rawPath);
    }
    gate(req, res);
  };
}
