/**
 * db:backup and db:restore on a database of real size while it is written to, as the server writes
 * (the app's audit append on a second connection). `BACKUP_SIZE_MB=100` runs the same tests on a
 * ~100 MB database and prints the backup time (docs/desempenho.md, "Backup"); the default keeps `npm test` short.
 */
import { readBackupRecord } from "../../../src/lib/server/admin/first-steps";
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertAuditRows, insertScaleUsers } from "../../../scripts/bench/scale-data";
import { writeAuditLog } from "../../../src/lib/server/audit/audit";
import { closeDatabase, openReadOnlyDatabase, sqliteClient, type Db } from "../../../src/lib/server/data/db";
import { onPostgres } from "../../support/pg";
import { openTestDatabase } from "../../support/users";
import { scriptArgs } from "../../support/scripts";

const SIZE_MB = Number(process.env.BACKUP_SIZE_MB ?? 10);
/** insertAuditRows with users: 300 000 rows make a ~130 MB file, indexes and chain hashes included (seed:scale's shape). */
const AUDIT_ROWS_PER_MB = 2_300;
const WRITES_PER_SECOND = 200;
/**
 * The load the flagged run (BACKUP_SIZE_MB) must sustain; in `npm test` on a shared machine the test
 * only asks that writes kept being committed while the backup ran (the writer's rate is the machine's).
 */
const MIN_WRITES_PER_SECOND = process.env.BACKUP_SIZE_MB ? 50 : 5;
/** The old step-by-step backup never finished under writes: past this, the test reports it as hung. */
const BACKUP_DEADLINE_MS = 20_000 + SIZE_MB * 500;

interface ScriptRun {
  child: ChildProcess;
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null; output: string; seconds: number }>;
}

function startScript(script: string, args: string[], env: Record<string, string>, deadlineMs = BACKUP_DEADLINE_MS): ScriptRun {
  const started = performance.now();
  const child = spawn(process.execPath, scriptArgs(script, args), {
    env: { ...process.env, DATABASE_URL: "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  const timer = setTimeout(() => child.kill("SIGKILL"), deadlineMs);
  const done = new Promise<Awaited<ScriptRun["done"]>>((resolve) =>
    child.on("exit", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, output, seconds: (performance.now() - started) / 1000 });
    }),
  );
  return { child, done };
}

const runScript = (script: string, args: string[], env: Record<string, string>) => startScript(script, args, env).done;

/** Appends audit rows through the app's own code at `perSecond`, catching up when a write was slow. */
function startWriter(db: Db, perSecond: number) {
  const committed: number[] = [];
  let failed = 0;
  let running = true;
  const started = performance.now();
  const loop = (async () => {
    while (running) {
      const id = await writeAuditLog(db, { actionType: "page_access_granted", result: "success", details: { escritor: committed.length } });
      if (id === null) failed++;
      else committed.push(id);
      const due = started + ((committed.length + failed) * 1000) / perSecond;
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - performance.now())));
    }
  })();
  return {
    committed,
    failed: () => failed,
    stop: async () => {
      running = false;
      await loop;
    },
  };
}

function readCopy<T>(file: string, read: (sqlite: NonNullable<ReturnType<typeof sqliteClient>>) => T): T {
  const db = openReadOnlyDatabase(file);
  try {
    return read(sqliteClient(db)!);
  } finally {
    sqliteClient(db)!.close();
  }
}

const auditCount = (file: string) =>
  readCopy(file, (sqlite) => (sqlite.prepare("select count(*) as n from audit_logs").get() as { n: number }).n);
const stackTrace = /\n\s+at /;

// The SQLite file's own backup; on PostgreSQL, backups are pg_dump's job (docs/operacao.md, "Vários servidores").
describe.skipIf(onPostgres)("db:backup and db:restore", () => {
  let dir: string;
  let databasePath: string;
  let db: Db;

  beforeAll(
    async () => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), "b1-backup-"));
      databasePath = path.join(dir, "db.sqlite");
      db = await openTestDatabase(databasePath);
      await insertAuditRows(db, SIZE_MB * AUDIT_ROWS_PER_MB, await insertScaleUsers(db, 500));
    },
    60_000 + SIZE_MB * 2_000,
  );

  afterAll(async () => {
    await closeDatabase(db);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it(
    `completes under ≥ ${MIN_WRITES_PER_SECOND} writes/s, passes integrity_check and holds every row committed before it started`,
    {
      timeout: BACKUP_DEADLINE_MS + 30_000,
    },
    async () => {
      const target = path.join(dir, "copias", "sob-carga.sqlite");
      const writer = startWriter(db, WRITES_PER_SECOND);
      try {
        await expect.poll(() => writer.committed.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(20);
        const before = [...writer.committed];
        const rowsBefore = (sqliteClient(db)!.prepare("select count(*) as n from audit_logs").get() as { n: number }).n;
        const backup = await runScript("scripts/db-backup.ts", [target], { DATABASE_PATH: databasePath });
        const writesPerSecond = (writer.committed.length - before.length) / backup.seconds;
        await writer.stop();
        const size = (fs.statSync(databasePath).size / 1e6).toFixed(1);
        console.log(
          `db:backup de um banco de ${size} MB sob ${writesPerSecond.toFixed(0)} gravações/s: ${backup.seconds.toFixed(1)} s com o início do processo (saída ${backup.code ?? backup.signal})\n${backup.output}`,
        );

        expect(backup.code, `${backup.signal ?? ""} ${backup.output}`).toBe(0);
        expect(backup.output).toContain("integridade ok");
        expect(writer.failed()).toBe(0);
        expect(writesPerSecond).toBeGreaterThanOrEqual(MIN_WRITES_PER_SECOND);
        expect(fs.readdirSync(path.dirname(target))).toEqual(["sob-carga.sqlite"]);
        readCopy(target, (copy) => {
          expect(copy.pragma("integrity_check", { simple: true })).toBe("ok");
          const held = copy
            .prepare("select count(*) as n from audit_logs where id in (select value from json_each(?))")
            .get(JSON.stringify(before));
          expect(held).toEqual({ n: before.length });
          expect((copy.prepare("select count(*) as n from audit_logs").get() as { n: number }).n).toBeGreaterThanOrEqual(rowsBefore);
        });
      } finally {
        await writer.stop();
      }
    },
  );

  it(
    "a SIGKILLed backup leaves nothing under the final name, and the rerun succeeds and clears its leftover",
    { timeout: 60_000 },
    async () => {
      const folder = path.join(dir, "interrompida");
      const target = path.join(folder, "b1.sqlite");
      const killed = startScript("scripts/db-backup.ts", [target], { DATABASE_PATH: databasePath });
      // Killed as soon as it has written anything into the folder: mid-copy.
      await expect.poll(() => fs.existsSync(folder) && fs.readdirSync(folder).length > 0, { timeout: 20_000, interval: 2 }).toBe(true);
      killed.child.kill("SIGKILL");
      expect((await killed.done).signal).toBe("SIGKILL");
      expect(fs.existsSync(target)).toBe(false);

      const rerun = await runScript("scripts/db-backup.ts", [target], { DATABASE_PATH: databasePath });
      expect(rerun.code, rerun.output).toBe(0);
      expect(rerun.output).toMatch(/Cópia incompleta de uma execução interrompida removida: b1\.sqlite\.parcial-\d+/);
      expect(fs.readdirSync(folder)).toEqual(["b1.sqlite"]);
      expect(readCopy(target, (copy) => copy.pragma("integrity_check", { simple: true }))).toBe("ok");
    },
  );

  it("db:restore into a folder that does not exist yet creates it", { timeout: 60_000 }, async () => {
    const backupFile = path.join(dir, "para-restaurar.sqlite");
    const before = Date.now();
    const backup = await runScript("scripts/db-backup.ts", [backupFile], { DATABASE_PATH: databasePath });
    expect(backup.code, backup.output).toBe(0);
    // The admin overview's 'Primeiros passos' learns of the copy from the record beside the database.
    expect(readBackupRecord(databasePath)!.getTime()).toBeGreaterThanOrEqual(before - 1000);
    const restoredPath = path.join(dir, "nova", "pasta", "db.sqlite");
    const restore = await runScript("scripts/db-restore.ts", [backupFile], { DATABASE_PATH: restoredPath });
    expect(restore.code, restore.output).toBe(0);
    expect(restore.output).toContain(`Banco ${restoredPath} restaurado`);
    expect(auditCount(restoredPath)).toBe(auditCount(backupFile));

    // Restoring over a damaged database (the usual reason to restore) keeps it aside untouched.
    fs.rmSync(restoredPath);
    fs.writeFileSync(restoredPath, "isto não é um banco");
    const over = await runScript("scripts/db-restore.ts", [backupFile], { DATABASE_PATH: restoredPath });
    expect(over.code, over.output).toBe(0);
    const kept = fs.readdirSync(path.dirname(restoredPath)).find((name) => name.startsWith("db.sqlite.antes-da-restauracao-"));
    expect(fs.readFileSync(path.join(path.dirname(restoredPath), kept!), "utf8")).toBe("isto não é um banco");
    expect(auditCount(restoredPath)).toBe(auditCount(backupFile));
  });

  it("every CLI error is one Portuguese line and a non-zero exit, never a stack trace", { timeout: 60_000 }, async () => {
    const aFile = path.join(dir, "um-arquivo");
    fs.writeFileSync(aFile, "não é uma pasta");
    const backupFile = path.join(dir, "valida.sqlite");
    expect((await runScript("scripts/db-backup.ts", [backupFile], { DATABASE_PATH: databasePath })).code).toBe(0);
    const cases: { script: string; args: string[]; env: Record<string, string>; says: string }[] = [
      {
        script: "scripts/db-backup.ts",
        args: [path.join(aFile, "b1.sqlite")],
        env: { DATABASE_PATH: databasePath },
        says: "é um arquivo, não uma pasta",
      },
      {
        script: "scripts/db-restore.ts",
        args: [backupFile],
        env: { DATABASE_PATH: path.join(aFile, "db.sqlite") },
        says: "é um arquivo, não uma pasta",
      },
      {
        script: "scripts/db-backup.ts",
        args: [path.join(dir, "pg.sqlite")],
        env: { DATABASE_URL: "postgres://b1@127.0.0.1:1/b1" },
        says: "pg_dump",
      },
      { script: "scripts/db-restore.ts", args: [backupFile], env: { DATABASE_URL: "postgres://b1@127.0.0.1:1/b1" }, says: "pg_dump" },
      {
        script: "scripts/db-backup.ts",
        args: [path.join(dir, "de-um-arquivo-qualquer.sqlite")],
        env: { DATABASE_PATH: aFile },
        says: "a cópia falhou: o arquivo não é um banco SQLite",
      },
      {
        script: "scripts/db-restore.ts",
        args: [path.join(dir, "nao-existe.sqlite")],
        env: { DATABASE_PATH: databasePath },
        says: "cópia não encontrada",
      },
    ];
    const runs = await Promise.all(cases.map(({ script, args, env }) => runScript(script, args, env)));
    for (const [index, { says }] of cases.entries()) {
      const run = runs[index]!;
      expect(run.code, run.output).not.toBe(0);
      expect(run.output, run.output).toMatch(/^Erro: /);
      expect(run.output).toContain(says);
      expect(run.output).not.toMatch(stackTrace);
    }
    expect(fs.readdirSync(dir).filter((name) => /^(pg|de-um-arquivo-qualquer)\.sqlite|\.parcial-/.test(name))).toEqual([]);
  });
});
