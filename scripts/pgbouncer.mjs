// A throw-away PgBouncer in transaction pooling in front of a PostgreSQL server, for the tests and
// `npm run chaos`: every database of the server through one loopback port (a `*` fallback entry),
// trust authentication, the settings of deploy/pgbouncer.ini that matter to the portal
// (pool_mode = transaction, ignore_startup_parameters). Plain ESM, like pg-cluster.mjs.
//
//   node scripts/pgbouncer.mjs --start <postgres-url>   starts one, prints its URL, stops on Ctrl-C
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { freePort } from "./pg-cluster.mjs";

/** The pgbouncer binary (Debian: /usr/sbin/pgbouncer), or null when it is not installed. */
export function findPgbouncer() {
  for (const candidate of ["/usr/sbin/pgbouncer", "/usr/local/bin/pgbouncer", "/usr/bin/pgbouncer"]) {
    if (fs.existsSync(candidate)) return candidate;
  }
  const found = spawnSync("sh", ["-c", "command -v pgbouncer"], { encoding: "utf8" });
  return found.status === 0 && found.stdout.trim() ? found.stdout.trim() : null;
}

const isRoot = () => process.getuid?.() === 0;

function owner() {
  const id = (flag) => Number(spawnSync("id", [flag, "postgres"], { encoding: "utf8" }).stdout.trim());
  return { uid: id("-u"), gid: id("-g") };
}

function accepts(port) {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/** Server connections of all the pooler's databases together: a third of the test server's 300 (pg-cluster.mjs). */
const MAX_USER_CONNECTIONS = 100;

/**
 * The configuration the tests and the reference cluster run: the settings that matter to the
 * portal are those of deploy/pgbouncer.ini (transaction pooling, the ignored startup parameter).
 */
export function pgbouncerConfig({
  upstreamHost,
  upstreamPort,
  port,
  dir,
  poolSize = 20,
  maxClients = 2000,
  maxDbConnections = 0,
  maxUserConnections = MAX_USER_CONNECTIONS,
}) {
  return [
    "[databases]",
    // Every database of the server (tests create their own), by the name the client asks for.
    `* = host=${upstreamHost} port=${upstreamPort}`,
    "",
    "[pgbouncer]",
    "listen_addr = 127.0.0.1",
    `listen_port = ${port}`,
    "unix_socket_dir =",
    "auth_type = trust",
    `auth_file = ${path.join(dir, "userlist.txt")}`,
    `logfile = ${path.join(dir, "pgbouncer.log")}`,
    `pidfile = ${path.join(dir, "pgbouncer.pid")}`,
    "pool_mode = transaction",
    `default_pool_size = ${poolSize}`,
    `max_client_conn = ${maxClients}`,
    `max_db_connections = ${maxDbConnections}`,
    // Tests make a database each (one pool each, the `*` entry): a bound on all of them together,
    // an idle server connection of another database closed to make room ("evicted"), and idle
    // ones closed after 10 s, so a whole pass stays under the test server's max_connections.
    `max_user_connections = ${maxUserConnections}`,
    "server_idle_timeout = 10",
    "ignore_startup_parameters = extra_float_digits,statement_timeout",
    "server_reset_query =",
    "server_check_delay = 0",
    "admin_users = postgres",
    "",
  ].join("\n");
}

/**
 * Starts PgBouncer in front of the server at `upstreamUrl` (a postgres:// URL; its user must be
 * `postgres`, trusted) and resolves with `url` (the same URL through the pooler), `port`,
 * `rewrite(url)` (any URL of that server, through the pooler) and an idempotent `stop()`.
 */
export async function startPgbouncer(upstreamUrl, options = {}) {
  const binary = findPgbouncer();
  if (!binary) throw new Error("PgBouncer não encontrado (apt install pgbouncer)");
  const upstream = new URL(upstreamUrl);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "b1-pgbouncer-"));
  const port = options.port ?? (await freePort());
  fs.writeFileSync(path.join(dir, "userlist.txt"), '"postgres" ""\n');
  fs.writeFileSync(
    path.join(dir, "pgbouncer.ini"),
    pgbouncerConfig({ upstreamHost: upstream.hostname, upstreamPort: Number(upstream.port || 5432), port, dir, ...options }),
  );
  if (isRoot()) {
    // PgBouncer refuses to run as root: its files belong to the server's user.
    const { uid, gid } = owner();
    for (const file of [dir, ...fs.readdirSync(dir).map((name) => path.join(dir, name))]) fs.chownSync(file, uid, gid);
  }
  // setpriv changes user and execs (runuser forks and stands between: a signal to it did not always reach PgBouncer).
  const [command, args] = isRoot()
    ? ["setpriv", ["--reuid", "postgres", "--regid", "postgres", "--init-groups", "--", binary, path.join(dir, "pgbouncer.ini")]]
    : [binary, [path.join(dir, "pgbouncer.ini")]];
  // Its standard error goes to a file, never a pipe: a pipe is drained only while this process's
  // event loop runs, and the process that starts it may block (test-all.mjs once ran vitest with spawnSync). PgBouncer logs
  // every connection there too; once the pipe's buffer was full it stopped in the write and every
  // client of the pooler waited forever (npm run test:pgbouncer hung ~2 minutes in).
  const stderrFile = path.join(dir, "stderr.log");
  const stderrFd = fs.openSync(stderrFile, "a");
  const child = spawn(command, args, { stdio: ["ignore", "ignore", stderrFd] });
  fs.closeSync(stderrFd);
  const stderr = () => (fs.existsSync(stderrFile) ? fs.readFileSync(stderrFile, "utf8") : "");
  let stopped = false;
  const stopSync = () => {
    if (stopped) return;
    stopped = true;
    process.off("exit", stopSync);
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    fs.rmSync(dir, { recursive: true, force: true });
  };
  process.on("exit", stopSync);
  const deadline = Date.now() + 10_000;
  while (!(await accepts(port))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      const log = fs.existsSync(path.join(dir, "pgbouncer.log")) ? fs.readFileSync(path.join(dir, "pgbouncer.log"), "utf8") : "";
      const output = stderr();
      stopSync();
      throw new Error(`PgBouncer não iniciou: ${output}${log}`.trim());
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const rewrite = (url) => {
    const through = new URL(url);
    through.hostname = "127.0.0.1";
    through.port = String(port);
    return through.toString();
  };
  return {
    url: rewrite(upstreamUrl),
    port,
    rewrite,
    logFile: path.join(dir, "pgbouncer.log"),
    stop: async () => {
      const exited = child.exitCode !== null ? Promise.resolve() : new Promise((resolve) => child.once("exit", resolve));
      stopSync();
      await exited;
    },
  };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  if (process.argv[2] !== "--start" || !process.argv[3]) {
    console.error("uso: node scripts/pgbouncer.mjs --start postgres://postgres@127.0.0.1:<porta>/postgres");
    process.exitCode = 2;
  } else {
    const bouncer = await startPgbouncer(process.argv[3]);
    console.log(bouncer.url);
    console.error("PgBouncer no ar (modo transação); Ctrl-C para parar.");
    const stop = () => void bouncer.stop().then(() => process.exit(0));
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
    setInterval(() => undefined, 1 << 30);
  }
}
