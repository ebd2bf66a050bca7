import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";

/** What the request log needs from the gate, filled in as the gate learns it. */
export interface RequestContext {
  /** Sent back as `X-Request-Id`, shown on the 500 page, present on every log line of the request. */
  id: string;
  startedAt: bigint;
  /** The gate's normalised path (no query string: it may hold a token). */
  path: string | null;
  userId: string | null;
}

const contexts = new WeakMap<IncomingMessage, RequestContext>();

/** An id from a trusted proxy (nginx `$request_id`) is kept so both logs share it; only a plain token. */
const FORWARDED_ID = /^[A-Za-z0-9._-]{8,64}$/;

export function beginRequest(req: IncomingMessage, trustProxy: boolean): RequestContext {
  const forwarded = trustProxy ? req.headers["x-request-id"] : undefined;
  const id = typeof forwarded === "string" && FORWARDED_ID.test(forwarded) ? forwarded : randomUUID();
  const context: RequestContext = { id, startedAt: process.hrtime.bigint(), path: null, userId: null };
  contexts.set(req, context);
  return context;
}

/** The context the listener created; undefined when the gate runs on its own (unit tests). */
export function requestContextOf(req: IncomingMessage): RequestContext | undefined {
  return contexts.get(req);
}
