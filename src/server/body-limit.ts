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

/** The body set by limitRequestBody as text; null when it went past the limit or broke off. */
export async function readBody(req: IncomingMessage): Promise<string | null> {
  const body = Reflect.get(req, "body") as AsyncIterable<Buffer> | undefined;
  if (!body) return "";
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of body) chunks.push(chunk);
  } catch {
    return null;
  }
  return Buffer.concat(chunks).toString("utf8");
}
