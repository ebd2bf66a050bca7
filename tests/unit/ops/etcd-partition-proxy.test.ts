/**
 * The relay that cuts one Patroni node off etcd in the reference cluster (scripts/etcd-partition-proxy.ts):
 * partitioned, it must look like a network partition — no refusal, no close, no byte either way —
 * and healed, carry the held connections on; a flood of connections must not grow it without bound.
 */
import net from "node:net";
import { setTimeout as delay } from "node:timers/promises";
import { afterEach, describe, expect, it } from "vitest";
import { parseRoutes, startPartitionProxy, type PartitionProxy } from "../../../scripts/etcd-partition-proxy.ts";

const opened: { close: () => unknown }[] = [];
afterEach(async () => {
  for (const item of opened.splice(0)) await item.close();
});

/** An echo server standing for etcd, on a free port. */
async function echoServer(): Promise<number> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.pipe(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  opened.push({
    close: () => new Promise<void>((resolve) => (sockets.forEach((socket) => socket.destroy()), server.close(() => resolve()))),
  });
  return (server.address() as net.AddressInfo).port;
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function proxyTo(target: number, max?: number): Promise<PartitionProxy> {
  const proxy = await startPartitionProxy(await freePort(), target, max);
  opened.push(proxy);
  return proxy;
}

/** A client connection that records what it receives and how it ended. */
async function client(port: number) {
  const socket = net.connect(port, "127.0.0.1");
  const seen = { data: "", events: [] as string[] };
  socket.on("data", (chunk) => (seen.data += chunk));
  socket.on("error", (error: NodeJS.ErrnoException) => seen.events.push(error.code ?? "error"));
  socket.on("end", () => seen.events.push("end"));
  socket.on("close", () => seen.events.push("close"));
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", resolve);
    socket.once("error", reject);
  });
  opened.push({ close: () => socket.destroy() });
  return { socket, seen };
}

const listenPort = (proxy: PartitionProxy) => (proxy.server.address() as net.AddressInfo).port;

describe("etcd partition relay", () => {
  it("listens on 127.0.0.1 only and carries bytes both ways", async () => {
    const proxy = await proxyTo(await echoServer());
    expect((proxy.server.address() as net.AddressInfo).address).toBe("127.0.0.1");
    const { socket, seen } = await client(listenPort(proxy));
    socket.write("ping");
    await delay(50);
    expect(seen.data).toBe("ping");
  });

  it("partitioned: open and new connections get nothing, are neither refused nor closed; healed, they go on", async () => {
    const proxy = await proxyTo(await echoServer());
    const before = await client(listenPort(proxy));
    before.socket.write("a");
    await delay(50);
    proxy.partition();
    before.socket.write("b");
    // A new connection is accepted (no ECONNREFUSED) and held.
    const during = await client(listenPort(proxy));
    during.socket.write("c");
    await delay(300);
    expect(before.seen).toEqual({ data: "a", events: [] });
    expect(during.seen).toEqual({ data: "", events: [] });
    proxy.heal();
    await delay(100);
    expect(before.seen).toEqual({ data: "ab", events: [] });
    expect(during.seen).toEqual({ data: "c", events: [] });
  });

  it("an end closed during the partition closes the other side only at the heal", async () => {
    let upstreamClosed = false;
    const target = net.createServer((socket) => socket.on("close", () => (upstreamClosed = true)).resume());
    await new Promise<void>((resolve) => target.listen(0, "127.0.0.1", resolve));
    opened.push({ close: () => new Promise<void>((resolve) => target.close(() => resolve())) });
    const proxy = await proxyTo((target.address() as net.AddressInfo).port);
    const { socket } = await client(listenPort(proxy));
    await delay(50);
    proxy.partition();
    socket.destroy();
    await delay(150);
    expect(upstreamClosed).toBe(false);
    proxy.heal();
    await delay(150);
    expect(upstreamClosed).toBe(true);
    expect(proxy.connections()).toBe(0);
  });

  it("a flood while partitioned holds at most the limit", async () => {
    const proxy = await proxyTo(await echoServer(), 20);
    proxy.partition();
    const sockets = Array.from({ length: 60 }, () => net.connect(listenPort(proxy), "127.0.0.1").on("error", () => {}));
    opened.push({ close: () => sockets.forEach((socket) => socket.destroy()) });
    await delay(300);
    expect(proxy.connections()).toBe(20);
  });

  it("parseRoutes: loopback addresses only, 1 to 10 routes", async () => {
    expect(parseRoutes(["127.0.0.11:24001=24001", "127.0.0.12:24009=24009"])).toEqual([
      { host: "127.0.0.11", listen: 24001, target: 24001 },
      { host: "127.0.0.12", listen: 24009, target: 24009 },
    ]);
    for (const bad of [
      [],
      ["24014=24001"],
      ["127.0.0.11:24014=24001=1"],
      ["0.0.0.0:24014=24001"],
      ["10.0.0.1:24014=24001"],
      ["127.0.0.300:24014=24001"],
      ["127.0.0.11:80=24001"],
      ["127.0.0.11:24014=99999"],
    ])
      expect(typeof parseRoutes(bad)).toBe("string");
    await expect(startPartitionProxy(0, 1, 1, "0.0.0.0")).rejects.toThrow(/loopback/);
  });
});
