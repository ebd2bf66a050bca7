/**
 * Checks the audit log's hash chain and its sealed head: `npm run audit:verify`. Exit 0 with the
 * count when every row and the head match (naming the rows written without AUDIT_CHAIN_KEY that
 * the chain took in, if any); exit 1 saying what does not (a row edited, inserted or deleted
 * around it; rows deleted from the end or the start; a count changed; the head's seal).
 *
 * `npm run audit:verify -- --seal` re-seals the head from the rows as they are (after checking
 * them): once after setting or changing AUDIT_CHAIN_KEY, or after an update from a version
 * without the head; see docs/security.md.
 *
 * `npm run audit:verify -- --file <arquivo> [--db]` checks a SIEM's copy (events as JSON lines,
 * webhook bodies or syslog messages; src/lib/server/audit/siem-copy.ts) against the chain, without
 * the database, or with `--db` also against its rows (and the database's chain as above). Exit 0
 * when it matches, 1 when it does not, 2 for a wrong command or a file that cannot be read.
 */
import { parseArgs } from "node:util";
import { describeChainProblem, describeRowsWithoutKey, type ChainState } from "../src/lib/audit/chain-state.ts";
import { sealChainHead, verifyAuditChain } from "../src/lib/server/audit/verify.ts";
import { CopyChecker, CopyFileError, describeCopyReport, feedFile } from "../src/lib/server/audit/siem-copy.ts";
import { closeDatabase, getMigratedDb, type Db } from "../src/lib/server/data/db.ts";

/** How many rows did verify: those before the row at fault, or all of them when the head is at fault. */
function verifiedBefore(state: Extract<ChainState, { ok: false }>): string {
  return state.brokenId !== null && ["forged_id", "hash", "missing_hash"].includes(state.reason)
    ? `${state.count} registros anteriores conferem`
    : `os ${state.count} registros encadeados conferem entre si`;
}

const USAGE =
  "uso: npm run audit:verify [-- --seal] | [-- --file <arquivo> [--db]] (arquivo: eventos JSON por linha, corpos do webhook ou mensagens syslog)";

function usage(problem: string): never {
  console.error(`ERRO: ${problem}\n${USAGE}`);
  process.exit(2);
}

let options: { seal?: boolean; file?: string; db?: boolean };
try {
  ({ values: options } = parseArgs({
    args: process.argv.slice(2),
    options: { seal: { type: "boolean" }, file: { type: "string" }, db: { type: "boolean" } },
    strict: true,
    allowPositionals: false,
  }));
} catch (error) {
  const code = (error as NodeJS.ErrnoException).code;
  usage(
    code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE"
      ? "--file pede o caminho do arquivo"
      : code === "ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL"
        ? "argumento a mais (o caminho vem depois de --file)"
        : "opção desconhecida",
  );
}
if (options.file !== undefined && options.seal) usage("--seal e --file não andam juntos");
if (options.db && options.file === undefined) usage("--db só vale com --file");
if (options.file === "") usage("informe o caminho depois de --file");

/** The SIEM copy in `file` against the chain (and with `db`, against its rows): exit 0, 1 or 2. */
async function verifyCopy(file: string, db: Db | null): Promise<void> {
  const checker = new CopyChecker();
  try {
    await feedFile(file, checker);
  } catch (error) {
    if (!(error instanceof CopyFileError)) throw error;
    console.error(`ERRO: ${error.message}.`);
    process.exitCode = 2;
    return;
  }
  const { lines, ok } = describeCopyReport(await checker.finish(db ?? undefined), file);
  for (const line of lines) (ok ? console.log : console.error)(line);
  if (!db)
    console.log(
      "Os hashes dos registros não usam chave: quem altera um evento e refaz os hashes seguintes passa aqui; use --db para conferir com o banco (e o topo selado com AUDIT_CHAIN_KEY).",
    );
  if (!ok) process.exitCode = 1;
}

const seal = options.seal === true;
if (options.file !== undefined && !options.db) await verifyCopy(options.file, null);
else await withDatabase(await getMigratedDb());

async function withDatabase(db: Db): Promise<void> {
  try {
    if (options.file !== undefined) {
      // The database's own chain first: a copy matching a forged database proves nothing.
      const state = await verifyAuditChain(db, async () => {});
      if (state.ok) console.log(`OK: cadeia do banco íntegra, ${state.count} registros.`);
      else {
        console.error(`ERRO: cadeia do banco: ${describeChainProblem(state)}; ${verifiedBefore(state)}.`);
        process.exitCode = 1;
      }
      await verifyCopy(options.file, db);
    } else if (seal) {
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
}
