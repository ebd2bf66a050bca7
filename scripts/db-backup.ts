/**
 * `npm run db:backup -- <file>`: a consistent copy of DATABASE_PATH through SQLite's online backup
 * API, safe while the server runs and writes; the copy is integrity-checked before it is kept.
 */
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { config } from "../src/lib/server/config/config.ts";
import { integrityOf } from "./db-files.ts";

function fail(message: string): never {
  console.error(`Erro: ${message}`);
  process.exit(1);
}

const target = process.argv[2];
if (!target) fail("informe o arquivo de destino: npm run db:backup -- backups/b1-2026-01-31.sqlite");
const source = config().databasePath;
const destination = path.resolve(target);
if (!fs.existsSync(source)) fail(`banco não encontrado: ${source}`);
if (fs.existsSync(destination)) fail(`${destination} já existe; escolha outro nome (nada foi sobrescrito)`);
fs.mkdirSync(path.dirname(destination), { recursive: true });

const sqlite = new Database(source, { readonly: true, fileMustExist: true });
sqlite.pragma("busy_timeout = 5000");
try {
  await sqlite.backup(destination);
} catch (error) {
  fs.rmSync(destination, { force: true });
  fail(`a cópia falhou: ${error instanceof Error ? error.message : String(error)}`);
} finally {
  sqlite.close();
}
const integrity = integrityOf(destination);
if (integrity !== "ok") {
  fs.rmSync(destination, { force: true });
  fail(`a cópia não passou na verificação de integridade (${integrity}); nada foi mantido`);
}
console.log(`Cópia de ${source} gravada em ${destination} (${(fs.statSync(destination).size / 1e6).toFixed(1)} MB, integridade ok)`);
