import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { drizzle } from "drizzle-orm/better-sqlite3";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { isDatabaseUnavailable } from "../../../src/lib/server/data/faults";
import { onPostgres } from "../../support/pg";

/** The error `work` throws or rejects with. */
async function failureOf(work: () => unknown): Promise<unknown> {
  try {
    await work();
  } catch (error) {
    return error;
  }
  throw new Error("era esperado um erro");
}

describe("database faults: unavailable (503) or a fault of the portal (500)", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "b1-faults-"));
  const file = path.join(dir, "db.sqlite");
  const writer = new Database(file);
  writer.exec("create table t (id integer primary key, name text unique)");
  writer.prepare("insert into t (name) values ('a')").run();
  afterAll(() => {
    writer.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("SQLite: a database that cannot write or is closed is unavailable, even wrapped by drizzle", async () => {
    const readOnly = new Database(file, { readonly: true });
    try {
      expect(isDatabaseUnavailable(await failureOf(() => readOnly.prepare("insert into t (name) values ('b')").run()))).toBe(true);
      const wrapped = await failureOf(() => drizzle(readOnly).run("insert into t (name) values ('c')"));
      expect(isDatabaseUnavailable(wrapped)).toBe(true);
    } finally {
      readOnly.close();
    }
    expect(isDatabaseUnavailable(await failureOf(() => readOnly.prepare("select 1")))).toBe(true);
  });

  it("SQLite: a constraint, a syntax error or a missing table is the portal's fault", async () => {
    expect(isDatabaseUnavailable(await failureOf(() => writer.prepare("insert into t (name) values ('a')").run()))).toBe(false);
    expect(isDatabaseUnavailable(await failureOf(() => writer.prepare("selec 1")))).toBe(false);
    expect(isDatabaseUnavailable(await failureOf(() => drizzle(writer).run("select * from missing")))).toBe(false);
    expect(isDatabaseUnavailable(new TypeError("Cannot read properties of undefined"))).toBe(false);
    expect(isDatabaseUnavailable(null)).toBe(false);
  });

  it("PostgreSQL: a refused or silent server is unavailable", async () => {
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as net.AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const refused = new pg.Pool({ connectionString: `postgres://x@127.0.0.1:${port}/x` });
    expect(isDatabaseUnavailable(await failureOf(() => refused.query("select 1")))).toBe(true);
    await refused.end();

    // Accepts the connection and never answers, as a hung server does.
    const silent = net.createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const pool = new pg.Pool({
      connectionString: `postgres://x@127.0.0.1:${(silent.address() as net.AddressInfo).port}/x`,
      connectionTimeoutMillis: 100,
    });
    try {
      expect(isDatabaseUnavailable(await failureOf(() => pool.query("select 1")))).toBe(true);
    } finally {
      await pool.end();
      silent.close();
    }
  });

  it.skipIf(!onPostgres)("PostgreSQL: a statement timeout and a read-only server are unavailable; a duplicate key is not", async () => {
    const client = new pg.Client({ connectionString: process.env.TEST_PG_URL });
    await client.connect();
    try {
      expect(isDatabaseUnavailable(await failureOf(() => client.query("set statement_timeout = 10; select pg_sleep(1)")))).toBe(true);
      await client.query("reset statement_timeout");
      await client.query("begin read only");
      expect(isDatabaseUnavailable(await failureOf(() => client.query("create temp table x (y int)")))).toBe(true);
      await client.query("rollback");
      await client.query("create temp table u (v int primary key); insert into u values (1)");
      expect(isDatabaseUnavailable(await failureOf(() => client.query("insert into u values (1)")))).toBe(false);
    } finally {
      await client.end();
    }
  });
});
