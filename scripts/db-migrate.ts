/**
 * `npm run db:migrate`: brings the configured database (`DATABASE_URL` on PostgreSQL, else the
 * SQLite file of `DATABASE_PATH`) to the current schema and seeds the system roles and pages, the
 * same steps the server takes at start. Run it once before the first instance on a new PostgreSQL.
 */
import { engineOf } from "../db/schema/index.ts";
import { closeDatabase, openDatabase } from "../src/lib/server/data/db.ts";
import { seedDatabase } from "../src/lib/server/data/seed.ts";
import { configuredTarget, errorText, printableTarget } from "./db-target.ts";

const target = configuredTarget();
const shown = printableTarget(target);
const engineName = engineOf(target) === "postgres" ? "PostgreSQL" : "SQLite";

try {
  const db = await openDatabase(target, { migrate: true });
  try {
    await seedDatabase(db);
  } finally {
    await closeDatabase(db);
  }
} catch (error) {
  console.error(`Erro: não foi possível migrar o banco ${engineName} ${shown}: ${errorText(error)}`);
  process.exit(1);
}
console.log(`Banco ${engineName} ${shown} migrado; perfis do sistema e páginas em dia.`);
