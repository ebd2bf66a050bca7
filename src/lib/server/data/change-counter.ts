import { sql } from "drizzle-orm";
import { sqliteClient, type Db } from "./db.ts";

/**
 * A value that changes whenever a writer may have changed sessions, users, roles or permissions.
 * SQLite: `PRAGMA data_version` moves when another connection commits (the CLI), and
 * `total_changes()` when this process's own connection writes (the gate and the pages share it).
 * PostgreSQL: the `cache_version` row that statement triggers bump on those tables, whichever
 * instance wrote (one indexed read). The gate's session cache and the admin user search's copy of
 * names and e-mails are kept until it moves.
 */
export function changeCounter(db: Db): () => Promise<string | number> {
  const sqlite = sqliteClient(db);
  if (sqlite) {
    const dataVersion = sqlite.prepare("PRAGMA data_version").pluck();
    const ownChanges = sqlite.prepare("select total_changes()").pluck();
    return async () => `${dataVersion.get() as number}:${ownChanges.get() as number}`;
  }
  const read = db
    .select({ version: sql<number>`version`.mapWith(Number) })
    .from(sql`cache_version`)
    .prepare("cache_version");
  return async () => (await read.execute())[0]?.version ?? 0;
}
