/**
 * `npm run db:restore -- <file>`: replaces DATABASE_PATH with a backup. Refuses while a server uses
 * the database, and refuses a backup that fails the integrity check; the replaced database is kept
 * next to it as `<name>.antes-da-restauracao-<data>`. Creates DATABASE_PATH's folder if needed.
 */
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { pidFileOf, runningServerPid } from "../src/lib/server/platform/server-pid.ts";
import { describeError, ensureFolder, fail, integrityOf, runCommand, sqliteDatabasePath, syncToDisk } from "./db-files.ts";

/** Moves the current database (and a WAL it may still have) aside, under `kept`. */
function keepCurrent(databasePath: string, kept: string): void {
  try {
    // Checkpoint first so the kept copy is usually one whole file.
    const current = new Database(databasePath, { fileMustExist: true });
    try {
      current.pragma("wal_checkpoint(TRUNCATE)");
    } finally {
      current.close();
    }
  } catch {
    // A damaged database is exactly what one restores over: kept as it is, its WAL beside it.
  }
  fs.renameSync(databasePath, kept);
  const wal = `${databasePath}-wal`;
  if (fs.existsSync(wal) && fs.statSync(wal).size > 0) fs.renameSync(wal, `${kept}-wal`);
}

await runCommand(async () => {
  const backup = process.argv[2]
    ? path.resolve(process.argv[2])
    : fail("informe o arquivo da cópia: npm run db:restore -- backups/b1.sqlite");
  const databasePath = sqliteDatabasePath();
  const pid = runningServerPid(databasePath);
  if (pid !== null) fail(`o servidor está rodando com este banco (pid ${pid}); pare-o antes de restaurar`);
  if (!fs.existsSync(backup)) fail(`cópia não encontrada: ${backup}`);
  const integrity = integrityOf(backup);
  if (integrity !== "ok") fail(`a cópia não passou na verificação de integridade (${integrity}); nada foi alterado`);

  const folder = path.dirname(databasePath);
  ensureFolder(folder);
  const staging = `${databasePath}.restaurando`;
  try {
    fs.rmSync(staging, { force: true });
    const source = new Database(backup, { readonly: true, fileMustExist: true });
    try {
      await source.backup(staging);
    } finally {
      source.close();
    }
    syncToDisk(staging);
  } catch (error) {
    fs.rmSync(staging, { force: true });
    fail(`a restauração falhou: ${describeError(error)}; nada foi alterado`);
  }
  if (fs.existsSync(databasePath)) {
    const kept = `${databasePath}.antes-da-restauracao-${new Date().toISOString().replace(/[:.]/g, "-")}`;
    keepCurrent(databasePath, kept);
    console.log(`Banco anterior guardado em ${kept}`);
  }
  for (const suffix of ["-wal", "-shm"]) fs.rmSync(databasePath + suffix, { force: true });
  fs.rmSync(pidFileOf(databasePath), { force: true });
  fs.renameSync(staging, databasePath);
  syncToDisk(folder);
  console.log(`Banco ${databasePath} restaurado de ${backup} (integridade ok)`);
});
