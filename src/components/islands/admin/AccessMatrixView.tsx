import { useEffect, useState } from "react";
import type { AccessMatrix } from "../../../lib/admin/access-matrix";

const DECISION_LABELS = { allow: "Acessa", deny: "Sem acesso", "sign-in": "Pede login" } as const;
const DECISION_CLASSES = {
  allow: "bg-emerald-100 text-emerald-900",
  deny: "bg-red-50 text-red-800",
  "sign-in": "bg-slate-100 text-slate-700",
} as const;

/** 'Quem acessa o quê': the matrix the gate enforces, and per user the pages they open and why. */
export default function AccessMatrixView() {
  const [matrix, setMatrix] = useState<AccessMatrix | null>(null);
  const [error, setError] = useState<string>();
  const [userId, setUserId] = useState("");

  useEffect(() => {
    fetch("/api/admin/access-matrix", { headers: { Accept: "application/json" } })
      .then(async (response) => {
        const body = await response.json();
        if (!response.ok) throw new Error(body.error ?? "Erro ao carregar a matriz de acesso");
        setMatrix(body as AccessMatrix);
      })
      .catch((reason: unknown) => setError(reason instanceof Error ? reason.message : "Erro ao carregar a matriz de acesso"));
  }, []);

  if (!matrix) return <p role={error ? "alert" : "status"}>{error ?? "Carregando..."}</p>;
  const user = matrix.users.find((candidate) => candidate.id === userId);
  return (
    <div className="space-y-6">
      <div className="overflow-x-auto rounded-lg border border-slate-200 dark:border-slate-700">
        <table className="w-full text-left text-sm">
          <caption className="sr-only">Acesso efetivo de cada perfil a cada página</caption>
          <thead className="bg-slate-50 dark:bg-slate-800">
            <tr>
              <th scope="col" className="px-3 py-2">
                Página
              </th>
              {matrix.columns.map((column) => (
                <th key={column.key} scope="col" className="px-3 py-2">
                  {column.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {matrix.rows.map((row) => (
              <tr key={row.path} className="border-t border-slate-200 dark:border-slate-700">
                <th scope="row" className="px-3 py-2 font-medium">
                  {row.name} <span className="font-normal text-slate-500">{row.path}</span>
                </th>
                {matrix.columns.map((column) => {
                  const decision = row.decisions[column.key]!;
                  return (
                    <td key={column.key} className="px-3 py-2">
                      <span className={`rounded px-2 py-0.5 text-xs font-semibold ${DECISION_CLASSES[decision]}`}>
                        {DECISION_LABELS[decision]}
                      </span>
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div className="space-y-3">
        <label htmlFor="access-user" className="block text-sm font-medium">
          Páginas que um usuário pode abrir
        </label>
        <select
          id="access-user"
          className="w-full max-w-md rounded-md border border-slate-300 bg-white px-3 py-2 dark:border-slate-600 dark:bg-slate-900"
          value={userId}
          onChange={(event) => setUserId(event.target.value)}
        >
          <option value="">Escolha um usuário</option>
          {matrix.users.map((candidate) => (
            <option key={candidate.id} value={candidate.id}>
              {candidate.fullName ? `${candidate.fullName} (${candidate.email})` : candidate.email}
            </option>
          ))}
        </select>
        {user && (
          <ul aria-label={`Páginas de ${user.email}`} className="space-y-1 text-sm">
            {user.pages.map((page) => (
              <li key={page.path}>
                <span className="font-medium">{page.name}</span> <span className="text-slate-500">{page.path}</span> — por{" "}
                {page.via.join(", ")}
              </li>
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}
