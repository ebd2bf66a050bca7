import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { RequestLine } from "../../lib/server/platform/logger.ts";

/**
 * One request's context: its id (sent back as `X-Request-Id`, shown on the 500 page, on every log
 * line of the request), what the gate learns (normalised path without the query string, which may
 * hold a token; the user) and, once the response is done, the rest of its log line.
 */
export interface RequestContext extends RequestLine {
  /** `performance.now()` when the request arrived. */
  startedAt: number;
  /** The socket's byte count before this response (one response at a time per connection). */
  bytesBefore: number;
}

/** Kept on the request object itself: a property read, where a WeakMap cost a lookup and GC work per request. */
const CONTEXT = Symbol("b1.requestContext");
type WithContext = IncomingMessage & { [CONTEXT]?: RequestContext };

/** An id from a trusted proxy (nginx `$request_id`) is kept so both logs share it; only a plain token. */
const FORWARDED_ID = /^[A-Za-z0-9._-]{8,64}$/;

export function beginRequest(req: IncomingMessage, trustProxy: boolean): RequestContext {
  const forwarded = trustProxy ? req.headers["x-request-id"] : undefined;
  const id = typeof forwarded === "string" && FORWARDED_ID.test(forwarded) ? forwarded : randomUUID();
  const context: RequestContext = {
    id,
    method: req.method ?? "GET",
    path: null,
    status: 0,
    durationMs: 0,
    bytes: 0,
    userId: null,
    aborted: false,
    quiet: false,
    startedAt: performance.now(),
    bytesBefore: req.socket.bytesWritten,
  };
  (req as WithContext)[CONTEXT] = context;
  return context;
}

/** The context the listener created; undefined when the gate runs on its own (unit tests). */
export function requestContextOf(req: IncomingMessage): RequestContext | undefined {
  return (req as WithContext)[CONTEXT];
}

/** The id to send back as `X-Request-Id` for this response, if the request has a context. */
export function requestIdOf(res: ServerResponse): string | undefined {
  return (res.req as WithContext | undefined)?.[CONTEXT]?.id;
}
