import fs from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { auditLogs } from "../../../db/schema/index";
import { onPostgres } from "../../support/pg";
import { startBuiltServer, type RunningServer } from "../../support/server";
import { createTestUser } from "../../support/users";

let server: RunningServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

const auditCount = async (running: RunningServer) => (await running.db.select().from(auditLogs)).length;

async function probe(running: RunningServer, path: string, headers: Record<string, string> = {}) {
  const response = await fetch(running.url + path, { headers });
  return { status: response.status, text: (await response.text()).trim(), headers: response.headers };
}

/** Polls until `/readyz` answers `status` (its answer is reused for up to a second). */
async function readinessBecomes(running: RunningServer, status: number) {
  await expect.poll(async () => (await probe(running, "/readyz")).status, { timeout: 5_000, interval: 200 }).toBe(status);
  return await probe(running, "/readyz");
}

describe("health endpoints", () => {
  it("answer 200 on a healthy server: public, no-store, no cookie, never audited", async () => {
    server = await startBuiltServer();
    const user = await createTestUser(server.db, ["admin"]);
    const before = await auditCount(server);
    const requests: Record<string, string>[] = [{}, { cookie: `b1_session=${user.token}` }];
    for (const headers of requests) {
      const live = await probe(server, "/healthz", headers);
      expect(live).toMatchObject({ status: 200, text: "ok" });
      const ready = await probe(server, "/readyz", headers);
      expect(ready).toMatchObject({ status: 200, text: "pronto" });
      for (const answer of [live, ready]) {
        expect(answer.headers.get("cache-control")).toBe("no-store");
        expect(answer.headers.get("set-cookie")).toBeNull();
      }
    }
    expect(await auditCount(server)).toBe(before);
  });

  it.skipIf(!onPostgres)("/readyz turns 503 when the PostgreSQL database lost the build's migrations (a bad restore)", async () => {
    server = await startBuiltServer();
    await server.db.execute(sql`drop table drizzle.__drizzle_migrations`);
    const ready = await readinessBecomes(server, 503);
    expect(ready.text).toBe("não pronto: migrações pendentes");
    expect((await probe(server, "/healthz")).status).toBe(200);
  });

  it.skipIf(onPostgres)("/readyz turns 503 when the database file is replaced by something that is not a database", async () => {
    server = await startBuiltServer();
    const databasePath = `${server.dataDir}/db.sqlite`;
    const impostor = `${server.dataDir}/impostor`;
    fs.writeFileSync(impostor, "isto não é um banco SQLite\n".repeat(200));
    // A bad restore: the main file swapped, its write-ahead log gone.
    fs.renameSync(impostor, databasePath);
    for (const suffix of ["-wal", "-shm"]) fs.rmSync(databasePath + suffix, { force: true });
    const ready = await readinessBecomes(server, 503);
    expect(ready.text).toBe("não pronto: banco de dados não responde");
    expect(ready.headers.get("cache-control")).toBe("no-store");
    expect((await probe(server, "/healthz")).status).toBe(200);
  });

  it("/readyz turns 503 first on SIGTERM while the server still answers, without an audit row", async () => {
    server = await startBuiltServer({ SHUTDOWN_DRAIN_MS: "4000" });
    const before = await auditCount(server);
    expect((await probe(server, "/readyz")).status).toBe(200);
    process.kill(server.pid, "SIGTERM");
    const ready = await readinessBecomes(server, 503);
    expect(ready.text).toBe("não pronto: encerrando");
    expect((await probe(server, "/healthz")).status).toBe(200);
    expect((await fetch(server.url + "/auth")).status).toBe(200);
    expect(await auditCount(server)).toBe(before);
  });
});
