// A throw-away PostgreSQL server for the tests: a temporary data directory, a free loopback port,
// no durability (fsync off), removed on stop or when this process ends. Plain ESM so that
// scripts/test-all.mjs imports it without a TypeScript loader.
//
//   node scripts/pg-cluster.mjs --check   says whether a server can be started here (exit 0/1)
//   node scripts/pg-cluster.mjs --start   starts one, prints its URL, stops it on Ctrl-C
import { execFile, execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { fileURLToPath } from "node:url";

const run = promisify(execFile);

function isExecutable(file) {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The folder holding initdb and pg_ctl: the newest /usr/lib/postgresql/<n>/bin, `pg_config --bindir`, or the PATH. */
export function findBinDir() {
  const debianRoot = "/usr/lib/postgresql";
  if (fs.existsSync(debianRoot)) {
    const versions = fs
      .readdirSync(debianRoot)
      .filter((name) => isExecutable(path.join(debianRoot, name, "bin", "initdb")))
      .sort((a, b) => Number.parseFloat(b) - Number.parseFloat(a));
    if (versions.length > 0) return path.join(debianRoot, versions[0], "bin");
  }
  try {
    const dir = execFileSync("pg_config", ["--bindir"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
    if (isExecutable(path.join(dir, "initdb"))) return dir;
  } catch {
    // no pg_config: try the PATH
  }
  for (const dir of (process.env.PATH ?? "").split(path.delimiter)) {
    if (dir && isExecutable(path.join(dir, "initdb")) && isExecutable(path.join(dir, "pg_ctl"))) return dir;
  }
  return null;
}

const isRoot = () => process.getuid?.() === 0;

/** The server refuses to run as root: as root, every command runs as the `postgres` user. */
function asServerUser(binary, args) {
  return isRoot() ? ["runuser", ["-u", "postgres", "--", binary, ...args]] : [binary, args];
}

function postgresOwner() {
  const uid = Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim());
  const gid = Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }).trim());
  return { uid, gid };
}

/** The kernel's ephemeral range (outgoing connections take their local port from it), or Linux's default. */
export function ephemeralPortRange() {
  try {
    const [low, high] = fs.readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/).map(Number);
    if (Number.isInteger(low) && Number.isInteger(high) && low <= high) return { low, high };
  } catch {
    // not Linux: assume its default
  }
  return { low: 32768, high: 60999 };
}

// Ports are handed out below the ephemeral range: a port probed free and then given to a child
// process could otherwise be taken, before the child listens, as the local end of any outgoing
// connection on the machine (a CI run lost a suite to EADDRINUSE that way). Each vitest worker
// (VITEST_POOL_ID, unique among workers running at once) draws from its own block, so two workers
// never probe the same port; other processes (Playwright, benchmarks, the test cluster) share block 0.
// TEST_PORTS=<first>-<last> narrows the range, so two test runs on one machine stay apart.
const PORT_BLOCK = 250;
let nextInBlock = process.pid % PORT_BLOCK;

function portRange() {
  const { low } = ephemeralPortRange();
  const chosen = /^(\d+)-(\d+)$/.exec(process.env.TEST_PORTS ?? "");
  if (chosen) return { first: Number(chosen[1]), end: Math.min(Number(chosen[2]) + 1, low) };
  return { first: 16000, end: low };
}

/** The block of ports a process with this VITEST_POOL_ID (none: not a vitest worker) draws from: [start, end). */
export function portBlock(poolId) {
  const { first, end } = portRange();
  const blocks = Math.floor((end - first) / PORT_BLOCK);
  if (blocks < 2) return null;
  const index = poolId && /^\d+$/.test(poolId) ? 1 + ((Number(poolId) - 1) % (blocks - 1)) : 0;
  return { start: first + index * PORT_BLOCK, end: first + (index + 1) * PORT_BLOCK };
}

function tryListen(port) {
  const probe = net.createServer();
  return new Promise((resolve) => {
    probe.once("error", () => resolve(null));
    probe.listen(port, "127.0.0.1", () => {
      const chosen = probe.address().port;
      probe.close(() => resolve(chosen));
    });
  });
}

/** A loopback port free a moment ago, outside the ephemeral range (servers in tests and benchmarks, the test cluster). */
export async function freePort() {
  const block = portBlock(process.env.VITEST_POOL_ID);
  if (block) {
    for (let tries = 0; tries < PORT_BLOCK; tries++) {
      const port = block.start + (nextInBlock++ % PORT_BLOCK);
      if ((await tryListen(port)) !== null) return port;
    }
  }
  // A kernel with (almost) no ports below its ephemeral range: let it choose.
  const port = await tryListen(0);
  if (port === null) throw new Error("nenhuma porta livre em 127.0.0.1");
  return port;
}

function failureText(error) {
  return [error.stderr, error.stdout, error.message].filter(Boolean).join("\n").trim();
}

/**
 * Where a throw-away server keeps its data: in memory (/dev/shm) when it has 4 GiB free, else the
 * temporary folder. A whole test pass leaves ~1 GB of databases (one per test server) that are
 * deleted at its end: on disk that took 10–35 s of a CI run, in memory well under a second.
 */
function dataParent() {
  try {
    const shm = fs.statfsSync("/dev/shm");
    if (shm.bavail * shm.bsize >= 4 * 2 ** 30) return "/dev/shm";
  } catch {
    // no /dev/shm (not Linux)
  }
  return os.tmpdir();
}

/**
 * Starts a server and resolves with its superuser URL and a `stop()` (idempotent, also run when
 * this process exits or receives SIGINT/SIGTERM). Rejects with the server's own words when it
 * cannot start.
 */
export async function startCluster({ port } = {}) {
  const binDir = findBinDir();
  if (!binDir) throw new Error("PostgreSQL não encontrado (initdb ausente em /usr/lib/postgresql/*/bin, pg_config e PATH)");
  const initdb = path.join(binDir, "initdb");
  const pgCtl = path.join(binDir, "pg_ctl");

  const root = fs.mkdtempSync(path.join(dataParent(), "b1-pg-"));
  const dataDir = path.join(root, "data");
  const logFile = path.join(root, "server.log");
  if (isRoot()) {
    const { uid, gid } = postgresOwner();
    fs.chownSync(root, uid, gid);
  }
  fs.chmodSync(root, 0o700);

  let stopped = false;
  const stopSync = () => {
    if (stopped) return;
    stopped = true;
    process.off("exit", stopSync);
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
    if (fs.existsSync(path.join(dataDir, "postmaster.pid"))) {
      // Its data is deleted next: no shutdown checkpoint to wait for.
      const [command, args] = asServerUser(pgCtl, ["stop", "-D", dataDir, "-m", "immediate", "-w"]);
      spawnSync(command, args, { stdio: "ignore" });
    }
    fs.rmSync(root, { recursive: true, force: true });
  };
  function onSignal(signal) {
    stopSync();
    process.kill(process.pid, signal);
  }
  process.on("exit", stopSync);
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);

  try {
    const [initCommand, initArgs] = asServerUser(initdb, [
      "-D",
      dataDir,
      "-A",
      "trust",
      "-U",
      "postgres",
      "--no-sync",
      "-E",
      "UTF8",
      "--locale=C",
    ]);
    await run(initCommand, initArgs);
    // A port free a moment ago can be taken before the server binds it: try a few.
    let lastError;
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const chosenPort = port ?? (await freePort());
      const options = [
        `-p ${chosenPort}`,
        "-c listen_addresses=127.0.0.1",
        `-k ${root}`,
        "-c fsync=off",
        "-c synchronous_commit=off",
        "-c full_page_writes=off",
        "-c max_connections=300",
      ].join(" ");
      const [startCommand, startArgs] = asServerUser(pgCtl, ["start", "-w", "-t", "60", "-D", dataDir, "-l", logFile, "-o", options]);
      try {
        await run(startCommand, startArgs);
        const url = `postgres://postgres@127.0.0.1:${chosenPort}/postgres`;
        // Outage tests stop the server and start it again on the same data and port.
        const [haltCommand, haltArgs] = asServerUser(pgCtl, ["stop", "-D", dataDir, "-m", "fast", "-w"]);
        return {
          url,
          port: chosenPort,
          binDir,
          stop: async () => stopSync(),
          halt: async () => void (await run(haltCommand, haltArgs)),
          resume: async () => void (await run(startCommand, startArgs)),
          serverPid: () => Number(fs.readFileSync(path.join(dataDir, "postmaster.pid"), "utf8").split("\n")[0]),
        };
      } catch (error) {
        const log = fs.existsSync(logFile) ? fs.readFileSync(logFile, "utf8") : "";
        lastError = new Error(`pg_ctl start falhou: ${failureText(error)}\n${log}`);
        if (port !== undefined) break;
      }
    }
    throw lastError;
  } catch (error) {
    stopSync();
    throw error instanceof Error ? error : new Error(String(error));
  }
}

async function main(flag) {
  if (flag === "--check") {
    try {
      const cluster = await startCluster();
      await cluster.stop();
      console.log(`PostgreSQL disponível (${cluster.binDir})`);
    } catch (error) {
      console.log(`PostgreSQL indisponível: ${error.message.split("\n")[0]}`);
      process.exitCode = 1;
    }
    return;
  }
  if (flag === "--start") {
    const cluster = await startCluster();
    console.log(cluster.url);
    console.error("PostgreSQL no ar; Ctrl-C para parar e apagar os dados.");
    setInterval(() => undefined, 1 << 30);
    return;
  }
  console.error("uso: node scripts/pg-cluster.mjs --check | --start");
  process.exitCode = 2;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await main(process.argv[2]);
}
