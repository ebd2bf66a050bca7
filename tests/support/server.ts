import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Db } from "../../src/lib/server/data/db";
import { freePort } from "../../scripts/pg-cluster.mjs";
import { closeDatabase, connectDatabase } from "../../src/lib/server/data/db";
import { freshDatabaseUrl } from "./pg";
import { freshSeededDatabaseUrl, openTestDatabase } from "./users";

export interface RunningServer {
  /** The address the server listens on (loopback, its port), whatever PUBLIC_URL says. */
  url: string;
  /** The server process id (memory read from /proc; crash and shutdown tests signal it). */
  pid: number;
  db: Db;
  /** DATABASE_PATH (and DATABASE_URL in the PostgreSQL pass) for a script run against this server's database. */
  databaseEnv: Record<string, string>;
  dataDir: string;
  output: () => string;
  /** Resolves with the exit code (or signal name) once the process has ended. */
  exited: Promise<number | string>;
  /** Ends the server (SIGTERM) and closes the test's handle; the data folder is removed unless `keepData` (a restart follows). */
  stop: (options?: { keepData?: boolean }) => Promise<void>;
}

export interface StartOptions {
  /** Reuse this data folder's database (a restart after a crash) instead of a fresh one. */
  dataDir?: string;
  /** Run the build of another project folder (a copy made by a test). */
  cwd?: string;
  startTimeoutMs?: number;
  /** Connect the test's handle without migrating or seeding, so only the server writes at its start. */
  openOnly?: boolean;
}

/**
 * Starts the BUILT gate (`dist/gate/main.mjs`) on a free loopback port with a fresh database (or
 * `options.dataDir`'s); PUBLIC_URL is that address, as in production (the CSRF check compares
 * Origin with it). A variable given as `undefined` is left out (e.g. PUBLIC_URL, to run the default configuration).
 */
export async function startBuiltServer(env: Record<string, string | undefined> = {}, options: StartOptions = {}): Promise<RunningServer> {
  const { cwd = process.cwd(), startTimeoutMs = 20_000 } = options;
  const port = env.PORT ?? String(await freePort());
  const dataDir = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), "b1-test-"));
  const databasePath = path.join(dataDir, "db.sqlite");
  // PostgreSQL pass: one database per data folder, remembered in it so a restart finds it again.
  const urlFile = path.join(dataDir, "database-url");
  const databaseUrl = fs.existsSync(urlFile)
    ? fs.readFileSync(urlFile, "utf8")
    : options.openOnly
      ? await freshDatabaseUrl()
      : await freshSeededDatabaseUrl();
  if (databaseUrl) fs.writeFileSync(urlFile, databaseUrl);
  const db = options.openOnly ? connectDatabase(databaseUrl ?? databasePath) : await openTestDatabase(databaseUrl ?? databasePath);
  let log = "";
  const child: ChildProcess = spawn(process.execPath, ["--disable-proto=throw", "dist/gate/main.mjs"], {
    cwd,
    // The test users' domain is allowed explicitly: the portal has no default allow-list.
    env: {
      ...process.env,
      PORT: port,
      HOST: "127.0.0.1",
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      DATABASE_PATH: databasePath,
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      AUTH_ALLOWED_DOMAINS: "b1.example.com",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stderr!.on("data", (chunk) => (log += chunk));
  const exited = new Promise<number | string>((resolve) => child.once("exit", (code, signal) => resolve(code ?? signal ?? "")));
  // A server that dies on its own (not stopped, not killed by a crash test) says why: its log goes to
  // the test output, so a failure that shows up as ECONNREFUSED in the next test names its cause.
  let stopping = false;
  child.once("exit", (code, signal) => {
    if (stopping || code === 0 || signal === "SIGKILL" || signal === "SIGTERM") return;
    console.error(`[servidor de teste ${child.pid}] saiu sozinho (${code ?? signal}); fim do log:\n${log.slice(-6000)}`);
  });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`servidor não iniciou:\n${log}`)), startTimeoutMs);
    child.stdout!.on("data", (chunk) => {
      log += chunk;
      // The start-up line prints PUBLIC_URL's address; requests go to where the server listens.
      if (log.includes("no ar em ")) {
        clearTimeout(timer);
        resolve(`http://127.0.0.1:${port}`);
      }
    });
    child.on("exit", (code) => reject(new Error(`servidor saiu (${code}):\n${log}`)));
  });
  return {
    url,
    pid: child.pid!,
    db,
    databaseEnv: { DATABASE_PATH: databasePath, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) },
    dataDir,
    output: () => log,
    exited,
    stop: async ({ keepData = false } = {}) => {
      stopping = true;
      child.kill("SIGTERM");
      await exited;
      await closeDatabase(db);
      if (!keepData) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
