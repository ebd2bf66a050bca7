/**
 * `npm run db:backup -- <file>`: a consistent copy of DATABASE_PATH, safe while the server runs and
 * writes. `VACUUM INTO` reads the whole database inside one read transaction (a WAL snapshot:
 * writers go on, and the copy never restarts, which the step-by-step backup API did on every
 * commit). The copy is written as `<file>.parcial-<pid>` in the target folder, flushed to disk,
 * integrity-checked, and only then linked under its final name; a killed run leaves only the
 * partial file, which the next run into that folder removes. Decision in docs/decisions.md.
 */
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { backupRecordPath } from "../src/lib/server/admin/first-steps.ts";
import { isProcessAlive } from "../src/lib/server/platform/server-pid.ts";
import { describeError, ensureFolder, fail, integrityOf, runCommand, sqliteDatabasePath, syncToDisk } from "./db-files.ts";

/** `<file>.parcial-<pid>` (and a journal SQLite may keep beside it). */
const PARTIAL = /\.parcial-(\d+)(-journal)?$/;

/** Partial copies in `folder` whose run is no longer alive (killed, or the machine went down). */
function removeLeftovers(folder: string): void {
  for (const name of fs.readdirSync(folder)) {
    const match = PARTIAL.exec(name);
    if (!match || isProcessAlive(Number(match[1]))) continue;
    fs.rmSync(path.join(folder, name), { force: true });
    console.log(`Cópia incompleta de uma execução interrompida removida: ${name}`);
  }
}

function copyInto(source: string, partial: string): void {
  const sqlite = new Database(source, { readonly: true, fileMustExist: true });
  try {
    sqlite.pragma("busy_timeout = 5000");
    sqlite.prepare("VACUUM INTO ?").run(partial);
  } finally {
    sqlite.close();
  }
}

/** Puts the checked copy under its final name, never over a file that appeared there meanwhile. */
function publish(partial: string, destination: string): void {
  try {
    fs.linkSync(partial, destination);
    return;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EEXIST") fail(`${destination} apareceu durante a cópia; nada foi sobrescrito`);
    // Shares without hard links (some SMB/FAT mounts): a rename, after one last look.
    if (code !== "EPERM" && code !== "ENOTSUP" && code !== "ENOSYS")
      fail(`não foi possível gravar ${destination}: ${describeError(error)}`);
  }
  if (fs.existsSync(destination)) fail(`${destination} apareceu durante a cópia; nada foi sobrescrito`);
  fs.renameSync(partial, destination);
}

/**
 * Beside the database, when and where the last checked copy was made: the admin overview's
 * 'Primeiros passos' reads it. A failure here is only a warning (the copy itself is good).
 */
function recordBackup(source: string, destination: string): void {
  const record = backupRecordPath(source);
  try {
    fs.writeFileSync(`${record}.tmp`, JSON.stringify({ em: new Date().toISOString(), arquivo: destination }) + "\n");
    fs.renameSync(`${record}.tmp`, record);
  } catch (error) {
    console.warn(`Aviso: a cópia está pronta, mas o registro ${record} não foi gravado (${describeError(error)})`);
  }
}

await runCommand(async () => {
  const target = process.argv[2];
  if (!target) fail("informe o arquivo de destino: npm run db:backup -- backups/b1-2026-01-31.sqlite");
  const source = sqliteDatabasePath();
  const destination = path.resolve(target);
  if (!fs.existsSync(source)) fail(`banco não encontrado: ${source}`);
  if (fs.existsSync(destination)) fail(`${destination} já existe; escolha outro nome (nada foi sobrescrito)`);
  const folder = path.dirname(destination);
  ensureFolder(folder);
  removeLeftovers(folder);

  const partial = `${destination}.parcial-${process.pid}`;
  const started = performance.now();
  let copied = started;
  try {
    try {
      copyInto(source, partial);
      syncToDisk(partial);
    } catch (error) {
      fail(`a cópia falhou: ${describeError(error)}; nada foi mantido`);
    }
    copied = performance.now();
    const integrity = integrityOf(partial);
    if (integrity !== "ok") fail(`a cópia não passou na verificação de integridade (${integrity}); nada foi mantido`);
    publish(partial, destination);
    syncToDisk(folder);
  } finally {
    fs.rmSync(partial, { force: true });
    fs.rmSync(`${partial}-journal`, { force: true });
  }
  recordBackup(source, destination);
  const seconds = (from: number, to: number) => ((to - from) / 1000).toFixed(1);
  const megabytes = (fs.statSync(destination).size / 1e6).toFixed(1);
  const finished = performance.now();
  console.log(
    `Cópia de ${source} gravada em ${destination} (${megabytes} MB em ${seconds(started, finished)} s: ` +
      `cópia ${seconds(started, copied)} s, verificação ${seconds(copied, finished)} s; integridade ok)`,
  );
});
