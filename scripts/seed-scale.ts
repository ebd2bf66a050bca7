/**
 * `npm run seed:scale [-- --users N --audit N --sessions N]`: fills DATABASE_PATH (default
 * data/b1.sqlite) or DATABASE_URL (postgres://…) with 10,000 users, 1,000,000 audit rows and
 * 50,000 sessions spread over a year (by default), printing progress, then runs ANALYZE. The
 * audit rows are chained and the chain's head moved (sealed with AUDIT_CHAIN_KEY when set), as the
 * portal writes them, so `npm run audit:verify` passes on the result. Run it with the portal stopped
 * (it gives the audit rows their ids itself).
 */
import { parseArgs } from "node:util";
import { eq } from "drizzle-orm";
import { users } from "../db/schema/index.ts";
import { config } from "../src/lib/server/config/config.ts";
import { closeDatabase, openDatabase, sqliteClient, type Db } from "../src/lib/server/data/db.ts";
import { seedDatabase } from "../src/lib/server/data/seed.ts";
import { writerKeyRefusal } from "../src/lib/server/audit/without-key.ts";
import { analyzeDatabase, insertAuditRows, insertScaleUsers, insertSessions, SCALE_PASSWORD } from "./bench/scale-data.ts";

export interface ScaleSizes {
  users: number;
  audit: number;
  sessions: number;
}

export const FULL_SCALE: ScaleSizes = { users: 10_000, audit: 1_000_000, sessions: 50_000 };

/** Seeds `db`, refreshes the planner's statistics and returns the seconds each step took; `log` hears progress. */
export async function seedScale(
  db: Db,
  sizes: ScaleSizes,
  log: (line: string) => void = () => {},
): Promise<Record<keyof ScaleSizes | "analyze", number>> {
  const timed = async (work: () => unknown) => {
    const started = performance.now();
    await work();
    return Math.round(performance.now() - started) / 1000;
  };
  let ids: string[] = [];
  const usersSeconds = await timed(async () => (ids = await insertScaleUsers(db, sizes.users)));
  log(`${sizes.users} usuários em ${usersSeconds} s`);
  const started = performance.now();
  const step = Math.max(1, Math.floor(sizes.audit / 10));
  let shown = 0;
  const auditSeconds = await timed(() =>
    insertAuditRows(db, sizes.audit, ids, Date.now(), 1, (written) => {
      if (written - shown < step && written < sizes.audit) return;
      shown = written;
      const seconds = (performance.now() - started) / 1000;
      log(`auditoria: ${written} de ${sizes.audit} linhas (${seconds.toFixed(0)} s, ${Math.round(written / seconds)} linhas/s)`);
    }),
  );
  log(`auditoria pronta em ${auditSeconds} s (índices incluídos)`);
  const sessionsSeconds = await timed(() => insertSessions(db, sizes.sessions, ids));
  log(`${sizes.sessions} sessões em ${sessionsSeconds} s`);
  // The planner picks its indexes from these statistics: without them it guesses.
  const analyzeSeconds = await timed(() => analyzeDatabase(db));
  log(`estatísticas do planejador (ANALYZE) em ${analyzeSeconds} s`);
  return { users: usersSeconds, audit: auditSeconds, sessions: sessionsSeconds, analyze: analyzeSeconds };
}

async function main() {
  const { values } = parseArgs({
    options: { users: { type: "string" }, audit: { type: "string" }, sessions: { type: "string" } },
  });
  const sizes: ScaleSizes = {
    users: Number(values.users ?? FULL_SCALE.users),
    audit: Number(values.audit ?? FULL_SCALE.audit),
    sessions: Number(values.sessions ?? FULL_SCALE.sessions),
  };
  if (Object.values(sizes).some((size) => !Number.isInteger(size) || size < 0) || (sizes.sessions > 0 && sizes.users === 0)) {
    console.error("Erro: tamanhos devem ser inteiros ≥ 0 (sessões exigem ao menos um usuário).");
    process.exit(1);
  }
  const file = config().databaseUrl;
  const db = await openDatabase(file, { migrate: true });
  // Opening only migrates: the system roles and pages come from the seed, as at the server's start.
  await seedDatabase(db);
  const refusal = await writerKeyRefusal(db);
  if (refusal) {
    console.error(`Erro: ${refusal}.`);
    process.exit(1);
  }
  if ((await db.select({ id: users.id }).from(users).where(eq(users.email, "pessoa-0@b1.example.com")))[0]) {
    console.error(`Erro: ${file} já tem os dados de escala (pessoa-0@b1.example.com). Use outro DATABASE_PATH.`);
    process.exit(1);
  }
  console.log(`Preenchendo ${file}: ${sizes.users} usuários, ${sizes.audit} linhas de auditoria, ${sizes.sessions} sessões…`);
  const started = performance.now();
  const seconds = await seedScale(db, sizes, (line) => console.log(`• ${line}`));
  sqliteClient(db)?.pragma("wal_checkpoint(TRUNCATE)");
  await closeDatabase(db);
  const total = Math.round((performance.now() - started) / 100) / 10;
  console.log(
    `Pronto em ${total} s: ${seconds.users} s (usuários) + ${seconds.audit} s (auditoria) + ${seconds.sessions} s (sessões) + ${seconds.analyze} s (ANALYZE). Senha de todos: ${SCALE_PASSWORD}`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
