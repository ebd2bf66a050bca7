/** The audit chain's state as `npm run audit:verify` and the audit page report it (pt-BR). */

/** Why a verification failed: a row (forged, edited, out of the chain) or the sealed head. */
export type ChainProblem =
  | "forged_id"
  | "hash"
  | "missing_hash"
  | "head_missing"
  | "head_key"
  | "head_seal"
  | "pruned"
  | "truncated"
  | "replaced"
  | "extra_rows"
  | "counts";

/** Rows a process without AUDIT_CHAIN_KEY wrote, later taken into the sealed chain: every row with an id from `firstId` to `lastId`. */
export interface RowsWithoutKey {
  firstId: number;
  lastId: number;
  rows: number;
}

export type ChainState =
  | {
      ok: true;
      /** Chained rows verified. */
      count: number;
      /** Rows from before the chain (no hash), covered by the head's sealed sum. */
      unchained: number;
      /** The head is sealed with AUDIT_CHAIN_KEY (false: no key set, the head is only a plain record). */
      sealed: boolean;
      /** Rows the chain holds that were written without the key (their content is as the writer left it; see docs/security.md). */
      withoutKey: RowsWithoutKey[];
    }
  | {
      ok: false;
      /** Rows that verified before the problem was found. */
      count: number;
      reason: ChainProblem;
      /** The row at fault, when one is. */
      brokenId: number | null;
      /** The last row the portal recorded in the head, and the last row the log holds (end problems). */
      sealedLastId?: number | null;
      lastId?: number | null;
      /** head_key: whether this process has a key, and whether the head was sealed with one. */
      keySet?: boolean;
      sealedWithKey?: boolean;
    };

export const SEAL_COMMAND = "npm run audit:verify -- --seal";

const row = (id: number | null | undefined) => (id === null || id === undefined ? "(nenhum)" : `#${id}`);

/** One sentence saying what is wrong, for an administrator. */
export function describeChainProblem(state: Extract<ChainState, { ok: false }>): string {
  switch (state.reason) {
    case "forged_id":
      return `registro ${row(state.brokenId)} com id menor que 1, que o portal nunca grava: inserido direto no banco`;
    case "hash":
      return `cadeia de auditoria quebrada no registro ${row(state.brokenId)} (o conteúdo não confere com o hash: registro alterado, ou outro removido ou inserido antes dele)`;
    case "missing_hash":
      return `cadeia de auditoria quebrada no registro ${row(state.brokenId)} (registro sem hash no meio da cadeia: inserido ou alterado fora do portal)`;
    case "head_missing":
      return `o topo da cadeia não está registrado: registros podem ter sido apagados; logo após atualizar o portal, rode ${SEAL_COMMAND}`;
    case "head_key":
      if (state.keySet && state.sealedWithKey)
        return `o topo da cadeia foi selado com outra AUDIT_CHAIN_KEY; se a chave foi trocada, rode ${SEAL_COMMAND}`;
      if (state.keySet)
        return `o topo da cadeia não foi selado com AUDIT_CHAIN_KEY; se a chave acabou de ser definida, rode ${SEAL_COMMAND}`;
      return "o topo da cadeia foi selado com AUDIT_CHAIN_KEY, que não está definida aqui: verifique com a chave";
    case "head_seal":
      return "o selo do topo da cadeia não confere com AUDIT_CHAIN_KEY: o topo foi alterado fora do portal";
    case "pruned":
      return "o início da cadeia não é o que a retenção deixou: registros antigos foram apagados fora do portal";
    case "truncated":
      return `registros apagados do fim do log: o último gravado pelo portal é o ${row(state.sealedLastId)}, mas o log termina no ${row(state.lastId)}`;
    case "replaced":
      return `o registro ${row(state.lastId)} não é o último que o portal gravou: foi substituído fora do portal`;
    case "extra_rows":
      return `registro ${row(state.brokenId)} gravado sem AUDIT_CHAIN_KEY ou fora do portal, depois do último registro selado ${row(state.sealedLastId)}`;
    case "counts":
      return "a contagem (details.count) de algum registro 'blocked', ou um registro anterior à cadeia, foi alterada fora do portal";
  }
}

/** Rows written without the key, for an administrator: "#12 a #15 (4 registros), #20"; null when there are none. */
export function describeRowsWithoutKey(ranges: readonly RowsWithoutKey[]): string | null {
  if (!ranges.length) return null;
  const total = ranges.reduce((sum, range) => sum + range.rows, 0);
  const shown = ranges.map((range) =>
    range.firstId === range.lastId ? `#${range.firstId}` : `#${range.firstId} a #${range.lastId} (${range.rows} registros)`,
  );
  return `${total === 1 ? "1 registro gravado" : `${total} registros gravados`} sem AUDIT_CHAIN_KEY (por um processo sem a chave) e selados depois: ${shown.join(", ")}`;
}
