/**
 * Checks the audit log's hash chain and its sealed head: `npm run audit:verify`. Exit 0 with the
 * count when every row and the head match (naming the rows written without AUDIT_CHAIN_KEY that
 * the chain took in, if any); exit 1 saying what does not (a row edited, inserted or deleted
 * around it; rows deleted from the end or the start; a count changed; the head's seal).
 *
 * `npm run audit:verify -- --seal` re-seals the head from the rows as they are (after checking
 * them): once after setting or changing AUDIT_CHAIN_KEY, or after an update from a version
 * without the head; see docs/security.md.
 */
import { describeChainProblem, describeRowsWithoutKey, type ChainState } from "../src/lib/audit/chain-state.ts";
import { sealChainHead, verifyAuditChain } from "../src/lib/server/audit/verify.ts";
import { closeDatabase, getMigratedDb } from "../src/lib/server/data/db.ts";

/** How many rows did verify: those before the row at fault, or all of them when the head is at fault. */
function verifiedBefore(state: Extract<ChainState, { ok: false }>): string {
  return state.brokenId !== null && ["forged_id", "hash", "missing_hash"].includes(state.reason)
    ? `${state.count} registros anteriores conferem`
    : `os ${state.count} registros encadeados conferem entre si`;
}

const seal = process.argv.includes("--seal");
const db = await getMigratedDb();
try {
  if (seal) {
    const result = await sealChainHead(db, async () => {});
    if (result.ok) {
      const at = result.lastId === null ? "log vazio" : `último registro #${result.lastId}`;
      console.log(
        result.sealed
          ? `OK: topo da cadeia selado com AUDIT_CHAIN_KEY (${at}).`
          : `OK: topo da cadeia registrado sem chave (${at}); defina AUDIT_CHAIN_KEY para selá-lo.`,
      );
    } else if ("pruning" in result) {
      console.error("ERRO: a retenção removeu registros durante a verificação; rode o comando de novo. O topo não foi alterado.");
      process.exitCode = 1;
    } else {
      console.error(`ERRO: ${describeChainProblem(result.state)}; ${verifiedBefore(result.state)}. O topo não foi selado.`);
      process.exitCode = 1;
    }
  } else {
    const state = await verifyAuditChain(db, async () => {});
    if (state.ok) {
      const before = state.unchained ? ` (e ${state.unchained} anteriores à cadeia, conferidos pelo topo)` : "";
      const head = state.sealed
        ? "topo selado com AUDIT_CHAIN_KEY"
        : "topo sem selo (AUDIT_CHAIN_KEY não definida: quem edita o banco pode refazer a cadeia)";
      console.log(`OK: cadeia de auditoria íntegra, ${state.count} registros verificados${before}; ${head}.`);
      const withoutKey = describeRowsWithoutKey(state.withoutKey);
      if (withoutKey) console.log(`ATENÇÃO: ${withoutKey}. Confira-os: a chave não garante que vieram do portal.`);
    } else {
      console.error(`ERRO: ${describeChainProblem(state)}; ${verifiedBefore(state)}.`);
      process.exitCode = 1;
    }
  }
} finally {
  await closeDatabase(db);
}
