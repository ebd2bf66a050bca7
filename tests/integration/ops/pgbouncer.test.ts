/**
 * The portal through PgBouncer in transaction pooling (deploy/pgbouncer.ini): consecutive
 * transactions of one client connection may run on different server connections, so nothing may
 * live on a server connection between transactions. PostgreSQL pass only; where pgbouncer is not
 * installed the suite is skipped, except in CI (.ci/run installs it), where that fails.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findPgbouncer, startPgbouncer } from "../../../scripts/pgbouncer.mjs";
import { dropAuditIndexes, insertAuditRows } from "../../../scripts/bench/scale-data";
import { closeDatabase, connectDatabase, migrateDatabase, type Db } from "../../../src/lib/server/data/db";
import { changeCounter } from "../../../src/lib/server/data/change-counter";
import { seedDatabase } from "../../../src/lib/server/data/seed";
import { createSession, validateSessionToken } from "../../../src/lib/server/sessions/session";
import { UNAVAILABLE_MESSAGE } from "../../../src/lib/server/http/failure";
import { createDatabase, directUrl, onPostgres } from "../../support/pg";
import { startBuiltServer } from "../../support/server";
import { createTestUser, openTestDatabase } from "../../support/users";

const available = Boolean(findPgbouncer()) || Boolean(process.env.CI);

describe.skipIf(!onPostgres || !available)("through PgBouncer in transaction pooling", () => {
  let bouncer: Awaited<ReturnType<typeof startPgbouncer>>;
  let databaseUrl: string;
  let db: Db;
  let direct: pg.Client;

  beforeAll(async () => {
    // The cluster's own address even in the PgBouncer stage of npm test: this suite starts its own pooler.
    databaseUrl = directUrl(await createDatabase(process.env.TEST_PG_URL!));
    // Two server connections at most: a second client holding one forces the next transaction onto the other.
    bouncer = await startPgbouncer(databaseUrl, { poolSize: 2 });
    direct = new pg.Client({ connectionString: databaseUrl });
    await direct.connect();
  }, 30_000);
  afterAll(async () => {
    if (db) await closeDatabase(db);
    await direct?.end();
    await bouncer?.stop();
  });

  it("migrating leaves no lock behind on the server connection it ran on", async () => {
    db = connectDatabase(bouncer.url);
    await migrateDatabase(db);
    await seedDatabase(db);
    const { rows } = await direct.query<{ held: number }>(
      "select count(*)::int as held from pg_locks where locktype = 'advisory' and database = (select oid from pg_database where datname = current_database())",
    );
    expect(rows[0]!.held).toBe(0);
    // A second instance starting now migrates at once (it would wait forever for a leaked session lock).
    const second = connectDatabase(bouncer.url);
    try {
      await migrateDatabase(second);
    } finally {
      await closeDatabase(second);
    }
  });

  it("a session lookup and the change counter still work when the next transaction lands on another server connection", async () => {
    const user = await createTestUser(db, ["visualizador"], "pgbouncer");
    const { token } = await createSession(db, user.id);
    const counter = changeCounter(db);
    expect((await validateSessionToken(db, token))?.principal.userId).toBe(user.id);
    const before = await counter();
    // Another client takes the server connection the lookups just ran on and keeps it in a transaction.
    const holder = new pg.Client({ connectionString: bouncer.url });
    await holder.connect();
    try {
      await holder.query("begin");
      await holder.query("select 1");
      expect((await validateSessionToken(db, token))?.principal.userId).toBe(user.id);
      expect(await counter()).toBeGreaterThanOrEqual(before);
      await db.execute(sql`select 1`);
    } finally {
      await holder.query("rollback");
      await holder.end();
    }
  });

  it("cancels on the server a statement longer than the role's statement_timeout (PgBouncer drops the driver's): 503 with Retry-After in Portuguese", async () => {
    // A database of its own, migrated and seeded straight on the server, with the timeout set as
    // docs/implantacao.md says (`ALTER ROLE`; here for this role in this database only, so no other test sees it).
    const ownUrl = directUrl(await createDatabase(process.env.TEST_PG_URL!));
    await closeDatabase(await openTestDatabase(ownUrl));
    const name = new URL(ownUrl).pathname.slice(1);
    await direct.query(`alter role postgres in database "${name}" set statement_timeout = '700ms'`);
    // A pooler started after the ALTER: every server connection it opens starts with the role's setting.
    const pooler = await startPgbouncer(ownUrl, { poolSize: 4 });
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "b1-pgbouncer-timeout-"));
    fs.writeFileSync(path.join(dataDir, "database-url"), pooler.url);
    // The driver's own limits (half of REQUEST_TIMEOUT_MS: 15 s) are far above the role's 0.7 s.
    const server = await startBuiltServer({ REQUEST_TIMEOUT_MS: "30000" }, { dataDir });
    const holder = new pg.Client({ connectionString: ownUrl });
    await holder.connect();
    try {
      const user = await createTestUser(server.db, ["visualizador"], "pgbouncer-timeout");
      const save = () =>
        fetch(`${server.url}/api/trail`, {
          method: "PUT",
          headers: { cookie: `b1_session=${user.token}`, origin: server.url, "content-type": "application/json" },
          body: JSON.stringify({ completed: [], answers: {}, projectName: "espera", updatedAt: Date.now() }),
        });
      const shown = await server.db.execute<{ timeout: string }>(sql`select current_setting('statement_timeout') as timeout`);
      expect(shown.rows[0]!.timeout).toBe("700ms");
      // Another session holds the table: the gate's write waits on the lock until the server cancels it.
      await holder.query("begin");
      await holder.query("lock table trail_progress in access exclusive mode");
      const began = performance.now();
      const refused = await save();
      const waited = performance.now() - began;
      expect(refused.status).toBe(503);
      expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
      expect(await refused.json()).toEqual({ error: UNAVAILABLE_MESSAGE });
      // Cancelled by the server at ~0.7 s, long before the driver's 15 s.
      expect(waited).toBeGreaterThanOrEqual(600);
      expect(waited).toBeLessThan(10_000);
      const waiting = await direct.query<{ count: number }>(
        "select count(*)::int as count from pg_stat_activity where datname = $1 and wait_event_type = 'Lock'",
        [name],
      );
      expect(waiting.rows[0]!.count).toBe(0);
      await holder.query("rollback");
      expect((await save()).status).toBe(200);
    } finally {
      await holder.end();
      await server.stop();
      await pooler.stop();
    }
  }, 60_000);

  it("seed:scale's bulk load leaves no setting behind on the server connection it ran on", async () => {
    const ownUrl = directUrl(await createDatabase(process.env.TEST_PG_URL!));
    await closeDatabase(await openTestDatabase(ownUrl));
    // The database's own value, distinct from the load's `off` whatever the test server's default is.
    await direct.query(`alter database "${new URL(ownUrl).pathname.slice(1)}" set synchronous_commit = 'local'`);
    // One server connection: whatever the load leaves on it, the next client of the pooler gets.
    const pooler = await startPgbouncer(ownUrl, { poolSize: 1 });
    const loader = connectDatabase(pooler.url);
    const next = new pg.Client({ connectionString: pooler.url });
    const fresh = new pg.Client({ connectionString: ownUrl });
    try {
      await fresh.connect();
      const defaults = await fresh.query<{ commit: string; memory: string }>(
        "select current_setting('synchronous_commit') as commit, current_setting('maintenance_work_mem') as memory",
      );
      expect(defaults.rows[0]!.commit).toBe("local");
      await insertAuditRows(loader, 500, []);
      // The index rebuild of a load of a million rows or more, run here on 500.
      const rebuild = await dropAuditIndexes(loader);
      await rebuild();
      await next.connect();
      const after = await next.query<{ commit: string; memory: string }>(
        "select current_setting('synchronous_commit') as commit, current_setting('maintenance_work_mem') as memory",
      );
      expect(after.rows[0]).toEqual(defaults.rows[0]);
      const indexes = await next.query<{ count: number }>(
        "select count(*)::int as count from pg_indexes where tablename = 'audit_logs' and indexname not like '%_pkey'",
      );
      expect(indexes.rows[0]!.count).toBeGreaterThan(0);
    } finally {
      await next.end().catch(() => undefined);
      await fresh.end().catch(() => undefined);
      await closeDatabase(loader);
      await pooler.stop();
    }
  });

  it("keeps serving while the process that started it is blocked: its log never fills a pipe nobody reads", async () => {
    // The process that started PgBouncer may stand still for a long while (scripts/test-all.mjs once ran
    // vitest with spawnSync for the whole pass; it still stops PostgreSQL synchronously). 800 sign-ins are ~200 KB of PgBouncer log lines.
    const pooler = await startPgbouncer(databaseUrl);
    try {
      const script = `const pg = require("pg");
        (async () => {
          for (let i = 0; i < 800; i++) {
            const client = new pg.Client({ connectionString: process.env.POOLER_URL });
            await client.connect();
            await client.query("select 1");
            await client.end();
          }
          console.log("800 conexões");
        })().catch((error) => { console.error(error); process.exit(1); });`;
      const result = spawnSync(process.execPath, ["-e", script], {
        env: { ...process.env, POOLER_URL: pooler.url },
        encoding: "utf8",
        timeout: 40_000,
      });
      expect({ status: result.status, signal: result.signal, stderr: result.stderr }).toEqual({ status: 0, signal: null, stderr: "" });
      expect(result.stdout.trim()).toBe("800 conexões");
    } finally {
      await pooler.stop();
    }
  }, 60_000);

  it("keeps its server connections under its bound across many databases, closing idle ones of other databases", async () => {
    // Every test file makes databases of its own: a pool of server connections per database,
    // kept idle afterwards, ran the test server out of connections ("too many clients") in the
    // whole pass through PgBouncer. The bound here is 4; npm run test:pgbouncer's is 100.
    const pooler = await startPgbouncer(databaseUrl, { maxUserConnections: 4 });
    // PgBouncer's own count (its admin console): an evicted connection leaves it at once, while the
    // server lists that backend until the backend has exited, later on a loaded machine (CI once
    // saw 5 there). Here the first database's backends are stopped before they are evicted, so
    // that lag is certain, not a matter of luck.
    const admin = new pg.Client({ connectionString: pooler.rewrite(databaseUrl).replace(/\/[^/?]+(?=\?|$)/, "/pgbouncer") });
    await admin.connect();
    const names: string[] = [];
    const stopped: number[] = [];
    // Client backends only: the autovacuum launcher sends a worker into each database that has
    // statistics, and it is listed under that database's name too (with the ~150 databases of a
    // whole PostgreSQL pass, one of these five now and then: CI once counted 5 here that way).
    const serverCount = async () => {
      const { rows } = await direct.query<{ count: number }>(
        "select count(*)::int as count from pg_stat_activity where datname = any($1::text[]) and backend_type = 'client backend'",
        [names],
      );
      return rows[0]!.count;
    };
    let most = 0;
    try {
      for (let index = 0; index < 5; index++) {
        if (index === 2) {
          const { rows } = await direct.query<{ pid: number }>(
            "select pid from pg_stat_activity where datname = $1 and backend_type = 'client backend'",
            [names[0]],
          );
          for (const { pid } of rows) process.kill(pid, "SIGSTOP");
          stopped.push(...rows.map((row) => row.pid));
        }
        const url = directUrl(await createDatabase(process.env.TEST_PG_URL!));
        names.push(new URL(url).pathname.slice(1));
        const clients = [0, 1].map(() => new pg.Client({ connectionString: pooler.rewrite(url) }));
        await Promise.all(clients.map((client) => client.connect()));
        // Two transactions at once: two server connections for this database.
        await Promise.all(clients.map((client) => client.query("select pg_sleep(0.05)")));
        await Promise.all(clients.map((client) => client.end()));
        // The admin console speaks the simple protocol only: no parameters.
        const { rows } = await admin.query<{ database: string }>("SHOW SERVERS");
        most = Math.max(most, rows.filter((row) => names.includes(row.database)).length);
      }
      expect(most).toBeLessThanOrEqual(4);
      // The first database's backends were evicted while stopped: they are still on the server.
      expect(await serverCount()).toBeGreaterThan(4);
      for (const pid of stopped.splice(0)) process.kill(pid, "SIGCONT");
      // Once they run again they read PgBouncer's goodbye and exit: the server is back under the bound.
      const deadline = Date.now() + 10_000;
      let count = await serverCount();
      while (count > 4 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        count = await serverCount();
      }
      expect(count).toBeLessThanOrEqual(4);
    } finally {
      for (const pid of stopped) process.kill(pid, "SIGCONT");
      await admin.end().catch(() => undefined);
      await pooler.stop();
    }
  }, 60_000);
});
