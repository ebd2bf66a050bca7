import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDatabase, openDatabase } from "../../../src/lib/server/data/db";
import { onPostgres } from "../../support/pg";
import { startBuiltServer } from "../../support/server";
import { createTestUser } from "../../support/users";

// The memory a process gains when the built audit worker thread starts and answers one page.
// Run in a fresh process, so nothing else this test runner loaded is counted.
const MEASURE = `
import fs from "node:fs";
import { Worker } from "node:worker_threads";
const anonMb = () => Number(/RssAnon:\\s+(\\d+)/.exec(fs.readFileSync("/proc/self/status", "utf8"))[1]) / 1024;
const before = anonMb();
const worker = new Worker(process.argv[2], { workerData: { kind: "pages", databasePath: process.argv[3], timeZone: "America/Sao_Paulo" } });
worker.postMessage({ id: 1, filter: { limit: 10 } });
const reply = await new Promise((resolve) => worker.once("message", resolve));
console.log(JSON.stringify({ ok: reply.ok, growthMb: Math.round(anonMb() - before) }));
await worker.terminate();
`;

let dir: string;
let databasePath: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "b1-worker-memory-"));
  databasePath = path.join(dir, "db.sqlite");
  await closeDatabase(await openDatabase(databasePath, { migrate: true }));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const anonMbOf = (pid: number) => Number(/RssAnon:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))?.[1]) / 1024;

describe("the server process", () => {
  // drizzle-orm loaded from node_modules as separate ES modules (by the gate and by Astro's server
  // chunks) left the process at ~218 MB of anonymous memory right after start; bundled, ~57 MB.
  it.skipIf(process.platform !== "linux")(
    "holds under 120 MB of anonymous memory once it has served a page and an API request",
    { timeout: 60_000 },
    async () => {
      const server = await startBuiltServer();
      try {
        const viewer = await createTestUser(server.db, ["visualizador"]);
        const headers = { cookie: `b1_session=${viewer.token}` };
        expect((await fetch(`${server.url}/faq`, { headers })).status).toBe(200);
        expect((await fetch(`${server.url}/api/trail`, { headers })).status).toBe(200);
        expect(anonMbOf(server.pid)).toBeLessThan(120);
      } finally {
        await server.stop();
      }
    },
  );
});

describe("the audit worker thread", () => {
  // Loaded as drizzle-orm's hundreds of separate ES modules, each audit thread (one for pages, one
  // per running export) cost ~190 MB; the build now bundles the worker's packages in (~30 MB).
  it.skipIf(onPostgres || process.platform !== "linux")(
    "starts and answers a page for under 80 MB of memory (SQLite; on PostgreSQL no thread is started)",
    () => {
      const workerFile = path.resolve("dist/gate/audit-worker.mjs");
      const script = path.join(dir, "measure.mjs");
      fs.writeFileSync(script, MEASURE);
      const run = spawnSync(process.execPath, [script, workerFile, databasePath], { encoding: "utf8" });
      expect(run.status, run.stderr).toBe(0);
      const result = JSON.parse(run.stdout.trim().split("\n").pop()!) as { ok: boolean; growthMb: number };
      expect(result.ok).toBe(true);
      expect(result.growthMb).toBeLessThan(80);
    },
  );
});
