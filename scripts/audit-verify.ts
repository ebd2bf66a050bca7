/**
 * Checks the audit log's hash chain: `npm run audit:verify`. Exit 0 with the count when every row
 * matches; exit 1 naming the first row that does not (edited, inserted or deleted around it).
 */
import { verifyAuditChain } from "../src/lib/server/audit/chain.ts";
import { closeDatabase, getDb } from "../src/lib/server/data/db.ts";

const db = getDb();
const state = await verifyAuditChain(db, async () => {});
await closeDatabase(db);
if (state.ok) {
  const before = state.unchained ? ` (${state.unchained} registros anteriores à cadeia não verificados)` : "";
  console.log(`OK: cadeia de auditoria íntegra, ${state.count} registros verificados${before}.`);
} else {
  const why = state.reason === "missing_hash" ? "registro sem hash no meio da cadeia" : "hash não confere com o conteúdo";
  console.error(
    `ERRO: cadeia de auditoria quebrada no registro #${state.brokenId} (${why}); ${state.count} registros anteriores conferem.`,
  );
  process.exitCode = 1;
}
