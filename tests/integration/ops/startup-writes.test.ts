/**
 * A start on a database that is already migrated and seeded writes nothing, so an instance can
 * start on a full disk (or a read-only replica) and serve what needs no write.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { closeDatabase } from "../../../src/lib/server/data/db";
import { freshDatabaseUrl } from "../../support/pg";
import { startBuiltServer, type RunningServer } from "../../support/server";
import { createTestUser } from "../../support/users";

interface WriteWatch {
  /** Something that says whether anything was committed since the watch began or was last read. */
  state: () => Promise<string>;
  close: () => Promise<void>;
}

/** SQLite: `PRAGMA data_version` of our own connection moves whenever another connection commits. */
function watchSqlite(file: string): WriteWatch {
  const sqlite = new Database(file, { readonly: true, fileMustExist: true });
  return {
    state: async () => String(sqlite.pragma("data_version", { simple: true })),
    close: async () => void sqlite.close(),
  };
}

/** PostgreSQL: every row's physical version (ctid, xmin) in our schemas; any insert, update or delete changes it. */
async function watchPostgres(url: string): Promise<WriteWatch> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return {
    state: async () => {
      const { rows: tables } = await client.query<{ name: string }>(
        `select format('%I.%I', table_schema, table_name) as name from information_schema.tables
          where table_schema in ('public', 'drizzle') and table_type = 'BASE TABLE' order by 1`,
      );
      const versions: string[] = [];
      for (const { name } of tables) {
        const { rows } = await client.query<{ rows: string }>(
          `select coalesce(string_agg(ctid::text || '@' || xmin::text, ',' order by ctid), '') as rows from ${name}`,
        );
        versions.push(`${name}=${rows[0]!.rows}`);
      }
      return versions.join("\n");
    },
    close: () => client.end(),
  };
}

/** Stops a test server but keeps its data folder for the next start. */
async function stopKeepingData(server: RunningServer): Promise<void> {
  process.kill(server.pid, "SIGTERM");
  await server.exited;
  await closeDatabase(server.db);
}

describe("start-up writes", () => {
  it("a start on an unchanged database performs no write", { timeout: 60_000 }, async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "b1-start-"));
    const url = await freshDatabaseUrl();
    if (url) fs.writeFileSync(path.join(dataDir, "database-url"), url);
    // The first start creates, migrates and seeds the database.
    await stopKeepingData(await startBuiltServer({}, { dataDir, openOnly: true }));

    const watch = url ? await watchPostgres(url) : watchSqlite(path.join(dataDir, "db.sqlite"));
    const before = await watch.state();
    const server = await startBuiltServer({}, { dataDir, openOnly: true });
    try {
      expect(await watch.state()).toBe(before);

      // The watch does see this server's writes: a saved trail moves it.
      const person = await createTestUser(server.db, ["visualizador"], "inicio");
      const beforeSave = await watch.state();
      const saved = await fetch(`${server.url}/api/trail`, {
        method: "PUT",
        headers: { cookie: `b1_session=${person.token}`, origin: server.url, "content-type": "application/json" },
        body: JSON.stringify({ completed: [], answers: {}, projectName: "início", updatedAt: 1 }),
      });
      expect(saved.status).toBe(200);
      expect(await watch.state()).not.toBe(beforeSave);
    } finally {
      await watch.close();
      await server.stop();
    }
  });
});
