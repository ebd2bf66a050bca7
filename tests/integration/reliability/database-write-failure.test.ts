/**
 * The database stops taking writes while the portal runs: on SQLite the disk is full (the server's
 * file-size limit lowered to what its write-ahead log holds now, with prlimit), on PostgreSQL the
 * database turns read-only (as after a failover to a replica). Writes answer 503, reads go on, the
 * process lives, `/readyz` says why; and all comes back once the database writes again.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { directUrl, onPostgres } from "../../support/pg";
import { startBuiltServer, type RunningServer } from "../../support/server";
import { createTestUser, type TestUser } from "../../support/users";

/** The write probe runs at most every 5 s; `/readyz` answers are reused for 1 s. */
const READINESS_SETTLES_MS = 8_000;

function hasPrlimit(): boolean {
  try {
    execFileSync("prlimit", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

describe.skipIf(!onPostgres && !hasPrlimit())("a database that cannot write", () => {
  let server: RunningServer;
  let person: TestUser;

  beforeAll(async () => {
    server = await startBuiltServer();
    person = await createTestUser(server.db, ["visualizador"], "disco-cheio");
  });
  afterAll(() => server?.stop());

  /** Makes the database refuse writes (`full`) or take them again. */
  async function setWritable(writable: boolean) {
    if (onPostgres) {
      const name = new URL(server.databaseEnv.DATABASE_URL!).pathname.slice(1);
      // Straight to the server, not through PgBouncer in its stage of npm test: the connection
      // that ends the others keeps its own setting, and through the pooler it is one of the
      // server connections the portal's next transactions reuse (it stayed writable).
      const admin = new pg.Client({ connectionString: directUrl(server.databaseEnv.DATABASE_URL!) });
      await admin.connect();
      try {
        // Its own connection, so it can turn the database writable again once it is read-only.
        await admin.query("set default_transaction_read_only = off");
        await admin.query(
          `alter database "${name}" ${writable ? "reset default_transaction_read_only" : "set default_transaction_read_only = on"}`,
        );
        // Connections already open keep their setting: end every one of the portal's, the pools open new ones.
        await admin.query(
          "select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()",
        );
      } finally {
        await admin.end();
      }
      return;
    }
    const wal = `${server.databaseEnv.DATABASE_PATH}-wal`;
    const limit = writable ? "unlimited" : String(Math.max(fs.statSync(wal).size, 4096));
    execFileSync("prlimit", ["--pid", String(server.pid), `--fsize=${limit}:unlimited`]);
  }

  const saveTrail = (projectName: string) =>
    fetch(`${server.url}/api/trail`, {
      method: "PUT",
      headers: { cookie: `b1_session=${person.token}`, origin: server.url, "content-type": "application/json" },
      body: JSON.stringify({ completed: [], answers: {}, projectName, updatedAt: Date.now() }),
    });
  const readTrail = () => fetch(`${server.url}/api/trail`, { headers: { cookie: `b1_session=${person.token}` } });
  const readiness = async () => {
    const response = await fetch(`${server.url}/readyz`);
    return `${response.status} ${(await response.text()).trim()}`;
  };

  it("answers writes with 503 and Retry-After, keeps serving reads, /readyz says so, and recovers", { timeout: 60_000 }, async () => {
    expect((await saveTrail("antes")).status).toBe(200);
    expect(await readiness()).toBe("200 pronto");
    await setWritable(false);
    try {
      // The first write may still fit in what the log already holds; a few more fill it.
      let refused: Response | undefined;
      for (let attempt = 0; attempt < 50 && !refused; attempt++) {
        const response = await saveTrail(`cheio ${attempt}`);
        if (response.status !== 200) refused = response;
      }
      expect(refused?.status).toBe(503);
      expect(refused!.headers.get("retry-after")).toMatch(/^\d+$/);
      expect(refused!.headers.get("content-type")).toMatch(/^application\/json/);
      expect(((await refused!.json()) as { error: string }).error).toMatch(/indisponível/);
      const read = await readTrail();
      expect(read.status).toBe(200);
      expect(((await read.json()) as { trail: { projectName: string } }).trail.projectName).toMatch(/^(antes|cheio)/);
      expect((await fetch(`${server.url}/faq`, { headers: { cookie: `b1_session=${person.token}` } })).status).toBe(200);
      // SQLite: the instance's own file, taken out; PostgreSQL: the shared database, said but nothing taken out.
      await expect
        .poll(readiness, { timeout: READINESS_SETTLES_MS, interval: 250 })
        .toBe(onPostgres ? "200 pronto; banco de dados não aceita gravações" : "503 não pronto: banco de dados não aceita gravações");
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    } finally {
      await setWritable(true);
    }
    await expect.poll(async () => (await saveTrail("depois")).status, { timeout: 5_000, interval: 100 }).toBe(200);
    await expect.poll(readiness, { timeout: READINESS_SETTLES_MS, interval: 250 }).toBe("200 pronto");
    expect(await Promise.race([server.exited.then(() => "saiu"), new Promise((resolve) => setTimeout(resolve, 100, "no ar"))])).toBe(
      "no ar",
    );
  });
});
