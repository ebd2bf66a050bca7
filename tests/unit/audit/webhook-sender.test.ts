/**
 * The webhook sender's HTTP (issue 45), against a bare local server: batches share one kept-alive
 * connection, a URL's user and password go as HTTP Basic (and never to the admin's view), a huge answer
 * is not read whole, a 3xx stops, a refused connection says why.
 */
import http from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { toEvents } from "../../../src/lib/server/audit/stream/event";
import { createWebhookSender, DeliveryError, displayUrl, type Sender } from "../../../src/lib/server/audit/stream/senders";
import type { StreamedRow } from "../../../src/lib/server/audit/stream/state";
import { freePort } from "../../../scripts/pg-cluster.mjs";

interface Seen {
  headers: http.IncomingHttpHeaders;
  bytes: number;
}

const servers: http.Server[] = [];
const senders: Sender[] = [];
afterEach(async () => {
  for (const sender of senders.splice(0)) sender.close();
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** A server answering each request with `answer`; records requests and counts connections. */
async function bareServer(answer: (res: http.ServerResponse) => void, options: http.ServerOptions = {}) {
  const seen: Seen[] = [];
  const sockets = new Set<Socket>();
  const server = http.createServer(options, (req, res) => {
    let bytes = 0;
    req.on("data", (chunk: Buffer) => (bytes += chunk.length));
    req.on("end", () => {
      seen.push({ headers: req.headers, bytes });
      answer(res);
    });
  });
  server.on("connection", (socket: Socket) => sockets.add(socket));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  servers.push(server);
  return { seen, sockets, port: (server.address() as AddressInfo).port };
}

function sender(url: string, timeoutMs = 2000): Sender {
  const created = createWebhookSender({ url, secret: new Uint8Array(32).fill(7), batchSize: 10, timeoutMs });
  senders.push(created);
  return created;
}

function batch(from: number, size = 3) {
  const rows: StreamedRow[] = Array.from({ length: size }, (_, index) => ({
    id: from + index,
    createdAt: Date.UTC(2026, 10, 28, 12, 0, index),
    userId: null,
    userEmail: null,
    userName: null,
    actionType: "page_access_granted",
    result: "success",
    actionDetails: JSON.stringify({ path: `/p${from + index}` }),
    ipAddress: "127.0.0.1",
    userAgent: "teste",
    hash: "a".repeat(64),
  }));
  return toEvents(rows, "b".repeat(64), "teste:1");
}

describe("the webhook sender's HTTP", () => {
  it("sends batch after batch on one kept-alive connection", async () => {
    // Node's default keep-alive (5 s); a receiver keeping idle connections 1 s or less gets one per batch (the agent's safety margin).
    const target = await bareServer((res) => res.writeHead(204).end());
    const send = sender(`http://127.0.0.1:${target.port}/hook`);
    for (let index = 0; index < 5; index++) await send.send(batch(1 + index * 3));
    expect(target.seen).toHaveLength(5);
    expect(target.sockets.size).toBe(1);
  });

  it("sends a URL's user and password as HTTP Basic; the admin's view of the URL has neither", async () => {
    const target = await bareServer((res) => res.writeHead(200).end());
    const url = `http://coletor:s%40nha-do-siem@127.0.0.1:${target.port}/hook?token=abc`;
    await sender(url).send(batch(1));
    expect(target.seen[0]!.headers.authorization).toBe(`Basic ${Buffer.from("coletor:s@nha-do-siem").toString("base64")}`);
    expect(displayUrl(url)).toBe(`http://127.0.0.1:${target.port}/hook`);
  });

  it("takes a 2xx whose body is huge without reading it whole, and the next batch still goes", async () => {
    const big = Buffer.alloc(10 * 1024 * 1024, 120);
    const target = await bareServer((res) => {
      res.writeHead(200, { "content-type": "text/plain", "content-length": String(big.length) });
      res.end(big);
    });
    const send = sender(`http://127.0.0.1:${target.port}/hook`);
    await send.send(batch(1));
    await send.send(batch(4));
    expect(target.seen).toHaveLength(2);
  });

  it("a redirect stops the destination (never followed); a refused connection is retried and says why", async () => {
    const target = await bareServer((res) => res.writeHead(302, { location: "http://127.0.0.1:1/elsewhere" }).end());
    const redirected = await sender(`http://127.0.0.1:${target.port}/hook`)
      .send(batch(1))
      .catch((error: unknown) => error);
    expect(redirected).toBeInstanceOf(DeliveryError);
    expect((redirected as DeliveryError).kind).toBe("stop");
    expect((redirected as DeliveryError).message).toContain("HTTP 302");
    expect(target.seen).toHaveLength(1);

    const closed = await freePort();
    const refused = await sender(`http://127.0.0.1:${closed}/hook`)
      .send(batch(1))
      .catch((error: unknown) => error);
    expect((refused as DeliveryError).kind).toBe("retry");
    expect((refused as DeliveryError).message).toBe("Falha de conexão: ECONNREFUSED");
  });

  it("an answer slower than the timeout is a retry naming the timeout", async () => {
    await bareServer(() => undefined).then(async (target) => {
      const started = Date.now();
      const late = await sender(`http://127.0.0.1:${target.port}/hook`, 300)
        .send(batch(1))
        .catch((error: unknown) => error);
      expect((late as DeliveryError).kind).toBe("retry");
      expect((late as DeliveryError).message).toBe("Sem resposta em 300 ms");
      expect(Date.now() - started).toBeLessThan(2000);
    });
  });
});
