import type { IncomingMessage, ServerResponse } from "node:http";
import type { Socket } from "node:net";

/** How long a refused upload may keep sending (discarded) after its answer before the socket goes. */
const LINGER_MS = 2000;

/**
 * The request body as the adapter will read it, cut at `limit` bytes whatever the framing
 * (Content-Length or chunked): past the limit it calls `onOverflow` and throws, without
 * destroying the socket, so the endpoint can still answer 413. Astro's `createRequest` reads
 * `req.body` when it is an async iterable, so this is the only way the adapter sees the body.
 */
export async function* limitRequestBody(req: IncomingMessage, limit: number, onOverflow: () => void): AsyncGenerator<Buffer> {
  let received = 0;
  // destroyOnReturn: false keeps the connection up for the answer once we stop reading.
  for await (const chunk of req.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>) {
    received += chunk.length;
    if (received > limit) {
      onOverflow();
      throw new RangeError(`corpo da requisição acima de ${limit} bytes`);
    }
    yield chunk;
  }
}

/** True when the declared Content-Length alone already exceeds the limit. */
export function declaresTooLarge(req: IncomingMessage, limit: number): boolean {
  const declared = req.headers["content-length"];
  return declared !== undefined && Number(declared) > limit;
}

/**
 * Closes the connection after the answer without losing it: Node would destroy the socket at once,
 * and bytes the client is still sending would then trigger a TCP reset that can wipe our 413 from
 * its receive buffer. So we send FIN, keep discarding what arrives for a moment, then destroy.
 */
export function closeAfterAnswer(socket: Socket): void {
  Reflect.set(socket, "destroySoon", () => {
    socket.end();
    setTimeout(() => socket.destroy(), LINGER_MS).unref();
  });
}

/**
 * A body that sends nothing for `idleMs` gets a raw 408 (as Node's own requestTimeout writes it)
 * and loses its connection; the endpoint still waiting on the body then sees it fail.
 */
export function cutIdleBody(req: IncomingMessage, res: ServerResponse, idleMs: number): void {
  req.setTimeout(idleMs, () => {
    const socket = req.socket;
    if (res.headersSent) return void socket.destroy();
    socket.end("HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Length: 0\r\n\r\n", () => socket.destroy());
  });
  // Only the body is timed: an answer in progress or a kept-alive connection is not.
  req.once("end", () => req.setTimeout(0));
}

/**
 * The body as text, read from the request's own events: for the gate's own endpoints (the search
 * beacon, hundreds a second), where the async iterator and generator of limitRequestBody cost ~20 µs
 * of CPU per request (measured: a bare Node server answering small POSTs, 126-131 → 104-108 µs each).
 * Past `limit` bytes it calls `onOverflow` and resolves null without destroying the socket (the 413
 * still goes out; what arrives after is dropped); null too when the body breaks off.
 */
export function readLimitedBody(req: IncomingMessage, limit: number, onOverflow: () => void): Promise<string | null> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let received = 0;
    const finish = (text: string | null) => {
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onBroken);
      req.off("close", onClose);
      resolve(text);
    };
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > limit) {
        onOverflow();
        finish(null);
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => finish(Buffer.concat(chunks).toString("utf8"));
    const onBroken = () => finish(null);
    const onClose = () => {
      if (!req.readableEnded) finish(null);
    };
    req.on("data", onData);
    req.once("end", onEnd);
    req.once("error", onBroken);
    req.once("close", onClose);
  });
}
