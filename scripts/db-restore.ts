/**
 * `npm run db:restore -- <file>`: replaces DATABASE_PATH with a backup. Refuses while a server uses
 * the database, and refuses a backup that fails the integrity check; the replaced database is kept
 * next to it as `<name>.antes-da-restauracao-<data>`.
 */
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { config } from "../src/lib/server/config/config.ts";
import { pidFileOf, runningServerPid } from "../src/lib/server/platform/server-pid.ts";
import { integrityOf } from "./db-files.ts";

function fail(message: string): never {
  console.error(`Erro: ${message}`);
  process.exit(1);
}

const backup = process.argv[2]
  ? path.resolve(process.argv[2])
  : fail("informe o arquivo da cópia: npm run db:restore -- backups/b1.sqlite");
const databasePath = config().databasePath;
const pid = runningServerPid(databasePath);
if (pid !== null) fail(`o servidor está rodando com este banco (pid ${pid}); pare-o antes de restaurar`);
if (!fs.existsSync(backup)) fail(`cópia não encontrada: ${backup}`);
const integrity = integrityOf(backup);
if (integrity !== "ok") fail(`a cópia não passou na verificação de integridade (${integrity}); nada foi alterado`);

const staging = `${databasePath}.restaurando`;
fs.rmSync(staging, { force: true });
const source = new Database(backup, { readonly: true, fileMustExist: true });
await source.backup(staging);
source.close();
if (fs.existsSync(databasePath)) {
  const kept = `${databasePath}.antes-da-restauracao-${new Date().toISOString().replace(/[:.]/g, "-")}`;
  // Checkpoint first so the kept copy is whole, then drop the WAL that belongs to the old file.
  const current = new Database(databasePath);
  current.pragma("wal_checkpoint(TRUNCATE)");
  current.close();
  fs.renameSync(databasePath, kept);
  console.log(`Banco anterior guardado em ${kept}`);
}
for (const suffix of ["-wal", "-shm"]) fs.rmSync(databasePath + suffix, { force: true });
fs.rmSync(pidFileOf(databasePath), { force: true });
fs.renameSync(staging, databasePath);
console.log(`Banco ${databasePath} restaurado de ${backup} (integridade ok)`);
