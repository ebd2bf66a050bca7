import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import { HEALTH_PATHS } from "./health.ts";

export interface ObservedListenerOptions {
  /** The gate's request listener: everything not answered here goes to it. */
  gate: RequestListener;
  respondToHealthProbe: (req: IncomingMessage, res: ServerResponse, path: string) => void;
}

/** The path part of the raw URL, for the exact matches answered before the gate. */
function rawPathOf(url: string): string {
  const queryStart = url.indexOf("?");
  return queryStart === -1 ? url : url.slice(0, queryStart);
}

/** Wraps the gate: health probes are answered before it. */
export function createObservedListener(options: ObservedListenerOptions): RequestListener {
  const { gate, respondToHealthProbe } = options;
  return function observedListener(req: IncomingMessage, res: ServerResponse): void {
    const rawPath = rawPathOf(req.url ?? "/");
    if (HEALTH_PATHS.has(rawPath)) return respondToHealthProbe(req, res, rawPath);
    gate(req, res);
  };
}
