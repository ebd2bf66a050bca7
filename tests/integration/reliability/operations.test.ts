import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createLoadCast, runLoad } from "../../../scripts/bench/load";
import { insertAuditRows } from "../../../scripts/bench/scale-data";
import { count } from "drizzle-orm";
import { auditLogs } from "../../../db/schema/index";
import { connectDatabase, sqliteClient, type Db } from "../../../src/lib/server/data/db";
import { onPostgres } from "../../support/pg";
import { startBuiltServer } from "../../support/server";
import { createTestUser } from "../../support/users";
import { scriptArgs } from "../../support/scripts";

function npmScript(script: string, args: string[], databasePath: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, scriptArgs(script, args), {
      env: { ...process.env, DATABASE_PATH: databasePath },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.on("exit", (code) => resolve({ code, output }));
  });
}

describe("operations", () => {
  // The SQLite file's own backup and restore; on PostgreSQL, backups are pg_dump's job (docs/operacao.md, "Vários servidores").
  it.skipIf(onPostgres)(
    "backs up under write load, refuses to restore while the server runs, restores once it is stopped",
    { timeout: 120_000 },
    async () => {
      const sqlite = (db: Db) => sqliteClient(db)!;
      const server = await startBuiltServer({ RATE_LIMIT_MULTIPLIER: "100000" });
      const databasePath = path.join(server.dataDir, "db.sqlite");
      const backupFile = path.join(server.dataDir, "copias", "b1.sqlite");
      try {
        const cast = await createLoadCast(server.db, 3, 2);
        // Bounded by time, not aborted: every request of the load gets its answer.
        const load = runLoad({ baseUrl: server.url, cast, durationMs: 8_000 });
        await expect
          .poll(() => (sqlite(server.db).prepare("select count(*) as n from trail_progress").get() as { n: number }).n, { timeout: 30_000 })
          .toBe(3);
        const trailsBefore = JSON.stringify(sqlite(server.db).prepare("select user_id from trail_progress order by user_id").all());
        const backup = await npmScript("scripts/db-backup.ts", [backupFile], databasePath);
        const result = await load;
        expect(backup.code, backup.output).toBe(0);
        expect(backup.output).toContain("integridade ok");
        expect(result.stats.trail.status5xx + result.stats["admin-edit"].status5xx).toBe(0);
        const copy = sqlite(connectDatabase(backupFile));
        expect(copy.pragma("integrity_check", { simple: true })).toBe("ok");
        expect(JSON.stringify(copy.prepare("select user_id from trail_progress order by user_id").all())).toBe(trailsBefore);
        copy.close();

        expect((await npmScript("scripts/db-backup.ts", [backupFile], databasePath)).output).toContain("já existe");
        const refused = await npmScript("scripts/db-restore.ts", [backupFile], databasePath);
        expect(refused.code).not.toBe(0);
        expect(refused.output).toContain(`o servidor está rodando com este banco (pid ${server.pid})`);

        // Something written after the backup disappears with the restore.
        const late = await createTestUser(server.db, ["lider"], "depois-da-copia");
        process.kill(server.pid, "SIGTERM");
        expect(await server.exited, server.output()).toBe(0);
        fs.writeFileSync(path.join(server.dataDir, "estragado.sqlite"), "isto não é um banco");
        const broken = await npmScript("scripts/db-restore.ts", [path.join(server.dataDir, "estragado.sqlite")], databasePath);
        expect(broken.code).not.toBe(0);
        expect(broken.output).toContain("nada foi alterado");

        sqlite(server.db).close();
        const restored = await npmScript("scripts/db-restore.ts", [backupFile], databasePath);
        expect(restored.code, restored.output).toBe(0);
        const again = await startBuiltServer({}, { dataDir: server.dataDir });
        try {
          expect(sqlite(again.db).pragma("integrity_check", { simple: true })).toBe("ok");
          expect(sqlite(again.db).prepare("select count(*) as n from users where id = ?").get(late.id)).toEqual({ n: 0 });
          const trail = await fetch(`${again.url}/api/trail`, { headers: { cookie: `b1_session=${cast.people[0]!.token}` } });
          expect(trail.status).toBe(200);
        } finally {
          await again.stop();
        }
      } finally {
        if (fs.existsSync(server.dataDir)) fs.rmSync(server.dataDir, { recursive: true, force: true });
      }
    },
  );

  it("SIGTERM during a long export lets it finish, soon refuses new connections, then exits cleanly", { timeout: 120_000 }, async () => {
    const server = await startBuiltServer();
    const admin = await createTestUser(server.db, ["admin"]);
    await insertAuditRows(server.db, 30_000, []);
    const [{ n: total }] = (await server.db.select({ n: count() }).from(auditLogs)) as [{ n: number }];
    const response = await fetch(`${server.url}/api/audit-logs/export.csv`, { headers: { cookie: `b1_session=${admin.token}` } });
    const reader = response.body!.getReader();
    let text = new TextDecoder().decode((await reader.read()).value);
    process.kill(server.pid, "SIGTERM");
    await expect.poll(() => server.output(), { timeout: 10_000 }).toContain("SIGTERM recebido");
    // Listening stops once the accept queue has been quiet for 0.1 s (at most 3 s): until then (no drain
    // here) answers keep their connections, so no client is sent back to a listener about to close; after
    // it every answer says `Connection: close`, and a new connection is refused.
    const seen: string[] = [];
    const attempt = () =>
      fetch(`${server.url}/auth`).then(
        (answer) => (answer.headers.get("connection") === "close" ? "respondida e fechada" : "respondida e aberta"),
        () => "recusada",
      );
    await expect.poll(async () => seen[seen.push(await attempt()) - 1], { timeout: 8_000, interval: 300 }).toBe("recusada");
    const closedFrom = seen.findIndex((outcome) => outcome !== "respondida e aberta");
    expect(seen.slice(closedFrom).filter((outcome) => outcome === "respondida e aberta")).toEqual([]);
    const decoder = new TextDecoder();
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) text += decoder.decode(chunk.value, { stream: true });
    expect(text.trimEnd().split("\r\n")).toHaveLength(total + 1);
    expect(await server.exited).toBe(0);
    await server.stop();
  });
});
