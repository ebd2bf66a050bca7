/**
 * A TCP relay between one Patroni node and the etcd members, for the reference cluster on loopback
 * only (scripts/cluster.ts starts one process per Patroni node; production, deploy/, has none):
 * `node scripts/etcd-partition-proxy.ts <127.x.y.z>:<port>=<etcd port on 127.0.0.1> …`. SIGUSR1 cuts the node off
 * etcd (a one-sided network partition: the other node still reaches etcd), SIGUSR2 heals it.
 *
 * Why this is what Patroni would see in a partition (no iptables/nft on this machine): packets that
 * are dropped produce timeouts, never refusals. Partitioned, the relay refuses nothing and closes
 * nothing: a connection already open stops carrying bytes in both directions (its sockets are no
 * longer read, so nothing is lost or answered — the kernel's buffers fill as a sender's unacknowledged
 * segments would), and a new connection is accepted and held without ever reaching etcd. Patroni's
 * etcd client (urllib3) bounds each request by a total timeout, connect included, so a held connect
 * and a dropped SYN end the same way: a timeout after the same time. Healed, held connections are
 * carried on (a real partition's retransmissions get through), and the ends that closed meanwhile
 * close the other side then. etcd's authentication applies unchanged: the relay only copies bytes.
 *
 * Listens on a loopback address only (127.0.0.0/8; the cluster gives each node its own, 127.0.0.11…); at most MAX_CONNECTIONS connections at once, held or carried (Patroni
 * uses a handful): beyond that a new one is closed at once, so a flood cannot grow its memory.
 */
import net from "node:net";
import path from "node:path";

export const MAX_CONNECTIONS = 256;

interface Pair {
  client: net.Socket;
  upstream: net.Socket | null;
  closed: boolean;
}

export interface PartitionProxy {
  server: net.Server;
  /** Connections open now (held or carried). */
  connections: () => number;
  partition: () => void;
  heal: () => void;
  isPartitioned: () => boolean;
  close: () => Promise<void>;
}

/** One relay: `host`:`listenPort` (loopback) → 127.0.0.1:`targetPort`; resolves once it listens. */
export async function startPartitionProxy(
  listenPort: number,
  targetPort: number,
  maxConnections = MAX_CONNECTIONS,
  host = "127.0.0.1",
): Promise<PartitionProxy> {
  if (!/^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host) || !net.isIPv4(host)) throw new Error(`endereço fora do loopback: ${host}`);
  let partitioned = false;
  const pairs = new Set<Pair>();

  const end = (pair: Pair) => {
    pair.closed = true;
    pair.client.destroy();
    pair.upstream?.destroy();
    pairs.delete(pair);
  };
  /** One side closed or failed: the other closes too — at once when carrying, at the heal when partitioned. */
  const sideClosed = (pair: Pair) => {
    pair.closed = true;
    if (!partitioned) end(pair);
  };
  const carry = (pair: Pair) => {
    if (pair.closed) return end(pair);
    if (!pair.upstream) {
      const upstream = net.connect({ host: "127.0.0.1", port: targetPort, allowHalfOpen: true });
      pair.upstream = upstream;
      upstream.on("error", () => sideClosed(pair));
      upstream.on("close", () => sideClosed(pair));
    }
    pair.client.pipe(pair.upstream);
    pair.upstream.pipe(pair.client);
  };
  const hold = (pair: Pair) => {
    pair.client.unpipe();
    pair.upstream?.unpipe();
    pair.client.pause();
    pair.upstream?.pause();
  };

  // allowHalfOpen: an end (FIN) read from one side is passed on by pipe() as an end, not a close.
  // pauseOnConnect: nothing is read from a new connection until it is carried.
  const server = net.createServer({ allowHalfOpen: true, pauseOnConnect: true }, (client) => {
    if (pairs.size >= maxConnections) {
      client.destroy();
      return;
    }
    const pair: Pair = { client, upstream: null, closed: false };
    pairs.add(pair);
    client.on("error", () => sideClosed(pair));
    client.on("close", () => sideClosed(pair));
    if (!partitioned) carry(pair);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(listenPort, host, () => resolve());
  });
  return {
    server,
    connections: () => pairs.size,
    partition: () => {
      partitioned = true;
      for (const pair of pairs) hold(pair);
    },
    heal: () => {
      if (!partitioned) return;
      partitioned = false;
      for (const pair of [...pairs]) carry(pair);
    },
    isPartitioned: () => partitioned,
    close: () =>
      new Promise<void>((resolve) => {
        for (const pair of [...pairs]) end(pair);
        server.close(() => resolve());
      }),
  };
}

interface Route {
  host: string;
  listen: number;
  target: number;
}

/** `<127.x.y.z>:<port>=<target port>` routes from the command line, or a Portuguese error. */
export function parseRoutes(argv: string[]): Route[] | string {
  const port = (text: string) => (/^\d{4,5}$/.test(text) && Number(text) >= 1024 && Number(text) <= 65_535 ? Number(text) : null);
  const routes = argv.map((arg): Route | null => {
    const match = /^(127\.\d{1,3}\.\d{1,3}\.\d{1,3}):(\d+)=(\d+)$/.exec(arg);
    if (!match || !net.isIPv4(match[1]!)) return null;
    const [listen, target] = [port(match[2]!), port(match[3]!)];
    return listen !== null && target !== null ? { host: match[1]!, listen, target } : null;
  });
  if (routes.length === 0 || routes.length > 10 || routes.some((route) => route === null))
    return "uso: node scripts/etcd-partition-proxy.ts <127.x.y.z>:<porta de escuta>=<porta do etcd> … (de 1 a 10)";
  return routes as Route[];
}

async function main(): Promise<void> {
  const routes = parseRoutes(process.argv.slice(2));
  if (typeof routes === "string") {
    console.error(routes);
    process.exit(2);
  }
  const proxies = await Promise.all(routes.map((route) => startPartitionProxy(route.listen, route.target, MAX_CONNECTIONS, route.host)));
  const stamp = () => new Date().toISOString();
  process.on("SIGUSR1", () => {
    for (const proxy of proxies) proxy.partition();
    console.log(`${stamp()} particionado: nada passa para o etcd (conexões retidas, nenhuma recusada)`);
  });
  process.on("SIGUSR2", () => {
    for (const proxy of proxies) proxy.heal();
    console.log(`${stamp()} partição desfeita`);
  });
  const stop = () => void Promise.all(proxies.map((proxy) => proxy.close())).then(() => process.exit(0));
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
  console.log(`${stamp()} no ar: ${routes.map((route) => `${route.host}:${route.listen} → ${route.target}`).join(", ")}`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.dirname, "etcd-partition-proxy.ts")) void main();
