import type { ServerResponse } from "node:http";
import type { ResponseFlow } from "../lib/server/audit/chunk-ring.ts";

/**
 * How a response's writing is going, for endpoints that stream (the audit CSV). Astro writes a
 * streamed body without waiting for the socket, so the endpoint awaits `drained` between chunks
 * (a slow client holds the producer, not the server's memory), and reuses a chunk's memory only
 * once `flushedBytes` says the socket has finished sending past it.
 */
export function responseFlow(res: ServerResponse): ResponseFlow {
  // Counted from here: bytes already on this keep-alive socket (sent or pending) are not ours. A
  // socket seen later (a pipelined response waits for one) is counted from then on; counting some
  // of our own bytes as "before" only makes a chunk look less sent, never more.
  const sentSoFar = () => res.socket?.bytesWritten ?? null;
  let start = sentSoFar();
  return {
    drained: () =>
      new Promise<void>((resolve) => {
        if (!res.writableNeedDrain || res.destroyed) return resolve();
        const done = () => {
          res.off("drain", done).off("close", done);
          resolve();
        };
        res.on("drain", done).on("close", done);
      }),
    // With nothing pending (every write's callback has run), the socket's byte count is what it sent.
    flushedBytes: () => {
      const now = sentSoFar();
      if (start === null) start = now;
      return now === null || start === null || res.writableLength !== 0 ? null : now - start;
    },
  };
}
