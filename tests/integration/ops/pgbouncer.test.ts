/**
 * The portal through PgBouncer in transaction pooling (deploy/pgbouncer.ini): consecutive
 * transactions of one client connection may run on different server connections, so nothing may
 * live on a server connection between transactions. PostgreSQL pass only; where pgbouncer is not
 * installed the suite is skipped, except in CI (.ci/run installs it), where that fails.
 */
import { sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findPgbouncer, startPgbouncer } from "../../../scripts/pgbouncer.mjs";
import { closeDatabase, connectDatabase, migrateDatabase, type Db } from "../../../src/lib/server/data/db";
import { changeCounter } from "../../../src/lib/server/data/change-counter";
import { seedDatabase } from "../../../src/lib/server/data/seed";
import { createSession, validateSessionToken } from "../../../src/lib/server/sessions/session";
import { createDatabase, directUrl, onPostgres } from "../../support/pg";
import { createTestUser } from "../../support/users";

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
});
