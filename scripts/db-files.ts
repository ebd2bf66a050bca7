/** What db:backup and db:restore share: the error exit, the SQLite file they work on, folders, integrity. */
import fs from "node:fs";
import Database from "better-sqlite3";
import { engineOf } from "../db/schema/index.ts";
import { config } from "../src/lib/server/config/config.ts";

/** A refusal or failure the command explains in one Portuguese line (no stack trace). */
class CommandError extends Error {}

export function fail(message: string): never {
  throw new CommandError(message);
}

/** File-system and SQLite error codes a person can act on, in Portuguese (the original text follows). */
const PROBLEMS: Record<string, string> = {
  ENOSPC: "disco cheio",
  EACCES: "sem permissão",
  EPERM: "sem permissão",
  EROFS: "sistema de arquivos somente leitura",
  ENOTDIR: "parte do caminho é um arquivo, não uma pasta",
  EEXIST: "já existe",
  SQLITE_FULL: "disco cheio",
  SQLITE_IOERR: "erro de leitura ou gravação no disco",
  SQLITE_CANTOPEN: "não foi possível abrir o arquivo",
  SQLITE_NOTADB: "o arquivo não é um banco SQLite",
  SQLITE_CORRUPT: "o banco está corrompido",
  SQLITE_BUSY: "o banco está ocupado",
  SQLITE_READONLY: "sem permissão de escrita",
};

export function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: string }).code ?? "";
  const known = Object.entries(PROBLEMS).find(([prefix]) => code.startsWith(prefix));
  if (known) return `${known[1]} (${error.message})`;
  return error.message;
}

/** Runs a command: a `fail` or any unexpected error ends it with `Erro: …` and exit code 1. */
export async function runCommand(main: () => Promise<void>): Promise<void> {
  try {
    await main();
  } catch (error) {
    console.error(`Erro: ${error instanceof CommandError ? error.message : `inesperado: ${describeError(error)}`}`);
    process.exitCode = 1;
  }
}

/** DATABASE_PATH; refuses when the portal runs on PostgreSQL, whose copies are pg_dump's. */
export function sqliteDatabasePath(): string {
  const { databasePath, databaseUrl } = config();
  if (engineOf(databaseUrl) === "postgres") {
    fail(
      "o portal usa PostgreSQL (DATABASE_URL); faça e restaure as cópias com pg_dump/pg_restore (docs/operacao.md, 'Vários servidores')",
    );
  }
  return databasePath;
}

export function ensureFolder(folder: string): void {
  if (fs.existsSync(folder) && !fs.statSync(folder).isDirectory()) fail(`${folder} é um arquivo, não uma pasta`);
  try {
    fs.mkdirSync(folder, { recursive: true });
  } catch (error) {
    fail(`não foi possível criar a pasta ${folder}: ${describeError(error)}`);
  }
}

/** Flushes a file (or a folder's entries) to the disk, so a rename or link survives a power cut. */
export function syncToDisk(file: string): void {
  const fd = fs.openSync(file, "r");
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** `PRAGMA integrity_check` of a database file, opened read-only: "ok" or the first problem. */
export function integrityOf(file: string): string {
  let sqlite: Database.Database | undefined;
  try {
    sqlite = new Database(file, { readonly: true, fileMustExist: true });
    const result = String(sqlite.pragma("integrity_check", { simple: true }));
    if (result !== "ok") return result;
    const tables = sqlite
      .prepare("select name from sqlite_master where type = 'table' and name in ('users', 'audit_logs', '__drizzle_migrations')")
      .all();
    return tables.length === 3 ? "ok" : "não é um banco do B1 Method Hub";
  } catch (error) {
    return describeError(error);
  } finally {
    sqlite?.close();
  }
}
