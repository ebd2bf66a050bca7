import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { createLoadCast, runLoad, verifyLoad } from "../../../scripts/bench/load";
import { count, eq } from "drizzle-orm";
import { auditLogs, trailProgress } from "../../../db/schema/index";
import { closeDatabase, sqliteClient } from "../../../src/lib/server/data/db";
import { getUserByEmail } from "../../../src/lib/server/auth/user";
import { startBuiltServer } from "../../support/server";
import { scriptArgs } from "../../support/scripts";

const LOAD_ENV = { RATE_LIMIT_MULTIPLIER: "100000" };

function runCli(args: string[], databaseEnv: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, scriptArgs("scripts/user.ts", args), {
      // The CLI refuses an address outside the allow-list: the same one the test server runs with.
      env: { ...process.env, ...databaseEnv, AUTH_ALLOWED_DOMAINS: "b1.example.com" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.on("exit", (code) => resolve({ code, output }));
  });
}

describe("crash safety", () => {
  it("the user CLI writes while the server is under write load, never failing with SQLITE_BUSY", { timeout: 90_000 }, async () => {
    const server = await startBuiltServer(LOAD_ENV);
    try {
      const cast = await createLoadCast(server.db, 3, 3);
      const controller = new AbortController();
      const load = runLoad({ baseUrl: server.url, cast, durationMs: 60_000, signal: controller.signal });
      const emails = [1, 2].map((n) => `cli-${n}-${Date.now()}@b1.example.com`);
      const runs = [];
      for (const email of emails) {
        runs.push(
          await runCli(
            ["add", "--email", email, "--name", "Pela CLI", "--password", "Senha@Forte1", "--role", "lider"],
            server.databaseEnv,
          ),
        );
      }
      runs.push(await runCli(["remove", "--email", emails[0]!], server.databaseEnv));
      controller.abort();
      const result = await load;
      expect(result.stats.trail.ok + result.stats["admin-edit"].ok).toBeGreaterThan(0);
      for (const run of runs) {
        expect(run.output).not.toMatch(/SQLITE_BUSY|database is locked/);
        expect(run.code, run.output).toBe(0);
      }
      expect(await getUserByEmail(server.db, emails[0]!)).toBeNull();
      expect((await getUserByEmail(server.db, emails[1]!))?.fullName).toBe("Pela CLI");
      expect(await verifyLoad(server.db, cast, result)).toEqual([]);
    } finally {
      await server.stop();
    }
  });

  it(
    "a SIGKILL in the middle of a write load loses no acknowledged write and leaves no half-applied admin change",
    { timeout: 90_000 },
    async () => {
      const first = await startBuiltServer(LOAD_ENV);
      const cast = await createLoadCast(first.db, 4, 4);
      const controller = new AbortController();
      const load = runLoad({ baseUrl: first.url, cast, durationMs: 60_000, signal: controller.signal });
      // Kill once a fair number of writes has been committed (each edit's audit row is in its transaction), with more in flight.
      const committed = async () => ({
        trails: (await first.db.select({ n: count() }).from(trailProgress))[0]!.n,
        edits: (await first.db.select({ n: count() }).from(auditLogs).where(eq(auditLogs.actionType, "admin_user_updated")))[0]!.n,
      });
      await expect
        .poll(
          async () => {
            const now = await committed();
            return now.trails === 4 && now.edits >= 8;
          },
          { timeout: 60_000 },
        )
        .toBe(true);
      process.kill(first.pid, "SIGKILL");
      expect(await first.exited).toBe("SIGKILL");
      controller.abort();
      const result = await load;
      await closeDatabase(first.db);

      const second = await startBuiltServer(LOAD_ENV, { dataDir: first.dataDir });
      try {
        const sqlite = sqliteClient(second.db);
        if (sqlite) expect(sqlite.pragma("integrity_check", { simple: true })).toBe("ok");
        // At most one request per loop is in flight at the kill, so at least 4 of the 8 committed edits were answered.
        expect(result.stats["admin-edit"].ok).toBeGreaterThanOrEqual(4);
        expect(result.stats.trail.status5xx + result.stats["admin-edit"].status5xx).toBe(0);
        expect(await verifyLoad(second.db, cast, result)).toEqual([]);
        // The restarted server serves the same people.
        const response = await fetch(`${second.url}/api/trail`, { headers: { cookie: `b1_session=${cast.people[0]!.token}` } });
        expect(response.status).toBe(200);
      } finally {
        await second.stop();
      }
    },
  );
});
