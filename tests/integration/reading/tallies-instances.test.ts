/**
 * The required-reading report's totals behind a load balancer: a confirmation taken by one
 * instance shows in the totals of every other within seconds (a counter the confirmation bumps in
 * the database, read by each instance's report), not after the 5-minute refresh. PostgreSQL pass
 * only: on SQLite the portal is one process, whose own confirmations mark its totals stale
 * (report-api.test.ts).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ReadingReport } from "../../../src/lib/reading/report";
import { closeDatabase, type Db } from "../../../src/lib/server/data/db";
import { freshDatabaseUrl, onPostgres } from "../../support/pg";
import { distWithRequiredPages, requiredPage } from "../../support/reading-dist";
import { startBuiltServer, type RunningServer } from "../../support/server";
import { createTestUser, openTestDatabase, type TestUser } from "../../support/users";

const ABOUT = requiredPage("/sobre-b1", "Sobre a B1", 1);
/** How long another instance may show the old totals. */
const DEADLINE_MS = 5_000;

describe.skipIf(!onPostgres)("required-reading totals on two instances", () => {
  let dist: string;
  let db: Db;
  let servers: RunningServer[] = [];
  let admin: TestUser;
  const viewers: TestUser[] = [];

  async function confirmedOn(server: RunningServer): Promise<number | null> {
    const response = await fetch(`${server.url}/api/leitura/relatorio?pagina=${encodeURIComponent(ABOUT.path)}`, {
      headers: { cookie: `b1_session=${admin.token}` },
    });
    if (response.status !== 200) return null;
    return ((await response.json()) as ReadingReport).selecionada?.confirmadas ?? null;
  }

  /** Polls `server` until its report shows `expected` confirmations; the last value seen otherwise. */
  async function waitForTotal(server: RunningServer, expected: number): Promise<{ seen: number | null; afterMs: number }> {
    const started = Date.now();
    let seen: number | null = null;
    while (Date.now() - started < DEADLINE_MS) {
      seen = await confirmedOn(server);
      if (seen === expected) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return { seen, afterMs: Date.now() - started };
  }

  function confirm(server: RunningServer, user: TestUser) {
    return fetch(`${server.url}/api/leitura/confirmacoes`, {
      method: "POST",
      headers: { cookie: `b1_session=${user.token}`, origin: server.url, "content-type": "application/json" },
      body: JSON.stringify({ pagina: ABOUT.path, versao: ABOUT.version }),
    });
  }

  beforeAll(async () => {
    dist = distWithRequiredPages([ABOUT]);
    const url = (await freshDatabaseUrl())!;
    // The people exist before the instances start: each counts them at its start.
    db = await openTestDatabase(url);
    admin = await createTestUser(db, ["admin"], "totais-admin");
    for (let index = 0; index < 3; index++) viewers.push(await createTestUser(db, ["visualizador"], `totais-${index}`));
    const folders = [0, 1].map(() => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "b1-totais-"));
      fs.writeFileSync(path.join(dir, "database-url"), url);
      return dir;
    });
    servers = await Promise.all(folders.map((dataDir) => startBuiltServer({ B1_DIST_DIR: dist }, { dataDir })));
  }, 60_000);

  afterAll(async () => {
    for (const server of servers) await server.stop();
    if (db) await closeDatabase(db);
    fs.rmSync(dist, { recursive: true, force: true });
  });

  it("a confirmation on A shows in B's totals within seconds, and the other way round", async () => {
    const [a, b] = servers as [RunningServer, RunningServer];
    for (const server of servers) expect(await waitForTotal(server, 0)).toMatchObject({ seen: 0 });
    expect((await confirm(a, viewers[0]!)).status).toBe(200);
    const onB = await waitForTotal(b, 1);
    expect(onB.seen, `B após ${onB.afterMs} ms`).toBe(1);
    console.log(`totais do relatório: a confirmação feita em A apareceu em B em ${onB.afterMs} ms (prazo ${DEADLINE_MS} ms)`);
    expect((await confirm(b, viewers[1]!)).status).toBe(200);
    const onA = await waitForTotal(a, 2);
    expect(onA.seen, `A após ${onA.afterMs} ms`).toBe(2);
    expect(await waitForTotal(b, 2)).toMatchObject({ seen: 2 });
  }, 30_000);
});
