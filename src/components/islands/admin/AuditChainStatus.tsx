import { useEffect, useState } from "react";
import { describeChainProblem, describeRowsWithoutKey, type ChainState } from "../../../lib/audit/chain-state";

/** The audit log's integrity for administrators: intact with its count (and whether the head is sealed), or what fails. */
export default function AuditChainStatus() {
  const [state, setState] = useState<ChainState | null>(null);

  useEffect(() => {
    fetch("/api/audit-logs/chain", { headers: { Accept: "application/json" } })
      .then((response) => (response.ok ? (response.json() as Promise<ChainState>) : null))
      .then(setState, () => setState(null));
  }, []);

  if (!state) return null;
  const withoutKey = state.ok ? describeRowsWithoutKey(state.withoutKey) : null;
  return state.ok ? (
    <>
      <p role="status" className="mb-4 rounded-md bg-emerald-50 px-3 py-2 text-sm text-emerald-900">
        Integridade do log: cadeia íntegra, {state.count} registros verificados
        {state.sealed ? ", topo selado." : ". O topo não tem selo (AUDIT_CHAIN_KEY não definida)."}
      </p>
      {withoutKey && (
        <p role="status" className="mb-4 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900">
          Atenção: {withoutKey}. Confira-os: a chave não garante que vieram do portal.
        </p>
      )}
    </>
  ) : (
    <p role="alert" className="mb-4 rounded-md bg-red-50 px-3 py-2 text-sm font-semibold text-red-800">
      Integridade do log: {describeChainProblem(state)}.
    </p>
  );
}
