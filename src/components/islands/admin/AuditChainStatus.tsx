import { useEffect, useState } from "react";

type ChainState = { ok: true; count: number; unchained: number } | { ok: false; count: number; brokenId: number; reason: string };

/** The audit log's integrity for administrators: intact with its count, or the first row that fails. */
export default function AuditChainStatus() {
  const [state, setState] = useState<ChainState | null>(null);

  useEffect(() => {
    fetch("/api/audit-logs/chain", { headers: { Accept: "application/json" } })
      .then((response) => (response.ok ? (response.json() as Promise<ChainState>) : null))
      .then(setState, () => setState(null));
  }, []);

  if (!state) return null;
  return state.ok ? (
    <p role="status" className="mb-4 rounded-md bg-emerald-50 px-3 py-2 text-sm text-emerald-900">
      Integridade do log: cadeia íntegra, {state.count} registros verificados.
    </p>
  ) : (
    <p role="alert" className="mb-4 rounded-md bg-red-50 px-3 py-2 text-sm font-semibold text-red-800">
      Integridade do log: cadeia quebrada no registro #{state.brokenId}. O registro foi alterado ou removido fora do portal.
    </p>
  );
}
