/** Integrity check shared by db:backup and db:restore. */
import Database from "better-sqlite3";

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
    return error instanceof Error ? error.message : String(error);
  } finally {
    sqlite?.close();
  }
}
