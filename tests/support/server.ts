import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Db } from "../../src/lib/server/db";
import { openTestDatabase } from "./users";

export interface RunningServer {
  url: string;
  db: Db;
  dataDir: string;
  output: () => string;
  stop: () => Promise<void>;
}

/**
 * Starts the BUILT gate (`dist/gate/main.mjs`) on a random loopback port with a fresh database;
 * `cwd` runs the build of another project folder (a copy made by a test).
 */
export async function startBuiltServer(
  env: Record<string, string> = {},
  cwd = process.cwd(),
  startTimeoutMs = 20_000,
): Promise<RunningServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "b1-test-"));
  const databasePath = path.join(dataDir, "db.sqlite");
  const db = openTestDatabase(databasePath);
  let log = "";
  const child: ChildProcess = spawn(process.execPath, ["dist/gate/main.mjs"], {
    cwd,
    env: { ...process.env, PORT: "0", HOST: "127.0.0.1", DATABASE_PATH: databasePath, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stderr!.on("data", (chunk) => (log += chunk));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`servidor não iniciou:\n${log}`)), startTimeoutMs);
    child.stdout!.on("data", (chunk) => {
      log += chunk;
      const match = /no ar em (http:\/\/[^\s]+)/.exec(log);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    child.on("exit", (code) => reject(new Error(`servidor saiu (${code}):\n${log}`)));
  });
  return {
    url,
    db,
    dataDir,
    output: () => log,
    stop: async () => {
      child.kill("SIGTERM");
      await new Promise((resolve) => child.once("exit", resolve));
      db.$client.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
