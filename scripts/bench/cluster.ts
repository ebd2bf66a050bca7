/**
 * Several gate instances on one PostgreSQL behind HAProxy, started here on loopback with the
 * configuration docs/implantacao.md recommends (deploy/haproxy.cfg): only its `bind` address and
 * `server` lines change. Used by `npm run bench -- --lb` and tests/integration/ops/load-balancer.test.ts.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort } from "../pg-cluster.mjs";

export const HAPROXY_CONFIG = "deploy/haproxy.cfg";

/** The HAProxy binary on the PATH or in Debian's place, or null when it is not installed. */
export function findHaproxy(): string | null {
  for (const candidate of ["/usr/sbin/haproxy", "/usr/local/sbin/haproxy"]) if (fs.existsSync(candidate)) return candidate;
  const found = spawnSync("sh", ["-c", "command -v haproxy"], { encoding: "utf8" });
  return found.status === 0 && found.stdout.trim() ? found.stdout.trim() : null;
}

/** The portal's 503 page for HAProxy (a complete HTTP response), installed at the `errorfile` path of the configuration. */
export const HAPROXY_ERROR_503 = "deploy/errors/503.http";

/**
 * The recommended configuration with its `bind` address and `server` lines replaced, and its
 * `errorfile` pointing at this checkout's copy (`errorFile`); everything else verbatim.
 */
export function haproxyConfig(
  template: string,
  bind: string,
  servers: { name: string; address: string }[],
  errorFile = path.resolve(HAPROXY_ERROR_503),
  adminSocket = path.join(os.tmpdir(), `b1-haproxy-${process.pid}-${Math.random().toString(36).slice(2, 8)}.sock`),
): string {
  const lines = template.split("\n");
  const firstServer = lines.findIndex((line) => /^\s+server\s/.test(line));
  if (firstServer < 0 || !lines.some((line) => /^\s+bind\s/.test(line))) throw new Error(`${HAPROXY_CONFIG}: sem linhas bind/server`);
  const indent = /^\s+/.exec(lines[firstServer]!)![0];
  const out: string[] = [];
  lines.forEach((line, index) => {
    if (/^\s+bind\s/.test(line)) out.push(line.replace(/bind\s+\S+/, `bind ${bind}`));
    else if (/^\s+stats socket\s/.test(line)) out.push(line.replace(/stats socket\s+\S+/, `stats socket ${adminSocket}`));
    else if (/^\s+errorfile 503\s/.test(line)) out.push(line.replace(/errorfile 503\s+\S+/, `errorfile 503 ${errorFile}`));
    else if (index === firstServer) for (const server of servers) out.push(`${indent}server ${server.name} ${server.address} check`);
    else if (!/^\s+server\s/.test(line)) out.push(line);
  });
  return out.join("\n");
}

export interface Gate {
  name: string;
  url: string;
  child: ChildProcess;
}

export interface LbCluster {
  /** The balancer's address (what people open; every instance's PUBLIC_URL). */
  url: string;
  gates: Gate[];
  /** SIGKILL one instance (a crash, no draining). */
  kill: (gate: Gate) => Promise<void>;
  stop: () => Promise<void>;
}

function waitForLine(child: ChildProcess, pattern: RegExp, what: string, timeoutMs = 30_000): Promise<void> {
  return new Promise((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error(`${what} não ficou pronto em ${timeoutMs} ms: ${out.slice(-500)}`)), timeoutMs);
    const onData = (chunk: Buffer) => {
      out += chunk;
      if (pattern.test(out)) {
        clearTimeout(timer);
        child.stdout?.off("data", onData);
        child.stdout?.resume();
        resolve();
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", (chunk: Buffer) => (out += chunk));
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`${what} saiu com código ${code}: ${out.slice(-500)}`));
    });
  });
}

const exited = (child: ChildProcess) =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise<void>((resolve) => child.once("exit", () => resolve()));

/**
 * Starts `instances` gates on the PostgreSQL database at `databaseUrl` (already migrated) and
 * HAProxy in front; resolves once the balancer answers /readyz. Ports: B1_LB_PORT and the ones
 * after it when set (the balancer, then each gate), else free loopback ports.
 */
export async function startLbCluster(options: {
  databaseUrl: string;
  instances: number;
  env?: Record<string, string>;
}): Promise<LbCluster> {
  const haproxy = findHaproxy();
  if (!haproxy) throw new Error("HAProxy não encontrado (apt install haproxy)");
  const base = process.env.B1_LB_PORT ? Number(process.env.B1_LB_PORT) : null;
  const port = async (offset: number) => (base === null ? freePort() : base + offset);
  const lbPort = await port(0);
  const url = `http://127.0.0.1:${lbPort}`;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "b1-lb-"));
  const gates: Gate[] = [];
  let balancer: ChildProcess | undefined;
  const stop = async () => {
    for (const child of [balancer, ...gates.map((gate) => gate.child)]) {
      if (child && child.exitCode === null && child.signalCode === null) {
        child.kill("SIGTERM");
        await exited(child);
      }
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    for (let index = 0; index < options.instances; index++) {
      const gatePort = await port(index + 1);
      const child = spawn(process.execPath, ["--disable-proto=throw", "dist/gate/main.mjs"], {
        env: {
          ...process.env,
          PORT: String(gatePort),
          HOST: "127.0.0.1",
          PUBLIC_URL: url,
          DATABASE_URL: options.databaseUrl,
          TRUST_PROXY: "true",
          AUTH_ALLOWED_DOMAINS: "b1.example.com",
          RATE_LIMIT_MULTIPLIER: "1000000",
          LOG_LEVEL: "warn",
          ...options.env,
        },
        stdio: ["ignore", "pipe", "pipe"],
      });
      gates.push({ name: `gate${index + 1}`, url: `http://127.0.0.1:${gatePort}`, child });
      await waitForLine(child, /no ar em /, `gate${index + 1}`);
    }
    const config = path.join(dir, "haproxy.cfg");
    const template = fs.readFileSync(HAPROXY_CONFIG, "utf8");
    fs.writeFileSync(
      config,
      haproxyConfig(
        template,
        `127.0.0.1:${lbPort}`,
        gates.map((gate) => ({ name: gate.name, address: new URL(gate.url).host })),
        undefined,
        // The runtime API's socket in the 0700 folder made for this run, not under a guessable name in the shared temporary folder.
        path.join(dir, "admin.sock"),
      ),
    );
    // -db: foreground, no daemon; stopped with the test.
    balancer = spawn(haproxy, ["-db", "-f", config], { stdio: ["ignore", "pipe", "pipe"] });
    balancer.stderr!.resume();
    balancer.stdout!.resume();
    const deadline = Date.now() + 15_000;
    for (;;) {
      const ready = await fetch(`${url}/readyz`).then(
        (response) => response.status === 200,
        () => false,
      );
      if (ready) break;
      if (balancer.exitCode !== null) throw new Error(`HAProxy saiu com código ${balancer.exitCode}`);
      if (Date.now() > deadline) throw new Error("HAProxy não respondeu /readyz em 15 s");
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    url,
    gates,
    kill: async (gate) => {
      gate.child.kill("SIGKILL");
      await exited(gate.child);
    },
    stop,
  };
}
