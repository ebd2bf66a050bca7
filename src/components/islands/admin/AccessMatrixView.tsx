import { useEffect, useRef, useState, type FormEvent } from "react";
import type { AccessMatrix, UserAccess } from "../../../lib/admin/access-matrix";
import type { UserListPage } from "../../../lib/admin/types";

const DECISION_LABELS = { allow: "Acessa", deny: "Sem acesso", "sign-in": "Pede login" } as const;
const DECISION_CLASSES = {
  allow: "bg-emerald-100 text-emerald-900",
  deny: "bg-red-50 text-red-800",
  "sign-in": "bg-slate-100 text-slate-700",
} as const;

/**
 * 'Quem acessa o quê', folded: the island owns its <details> and reads the matrix when it is first opened (or was
 * opened before the script arrived). It used to hydrate `client:visible` inside a closed <details>, and Chromium now
 * and then never reported the opened content as visible: the section said "Carregando..." for good.
 */
export default function AccessMatrixView() {
  const details = useRef<HTMLDetailsElement>(null);
  const [opened, setOpened] = useState(false);
  useEffect(() => {
    if (details.current?.open) setOpened(true);
  }, []);
  return (
    <details
      ref={details}
      onToggle={(event) => event.currentTarget.open && setOpened(true)}
      className="mt-10 rounded-xl border border-slate-200 p-5 dark:border-slate-700"
    >
      <summary className="cursor-pointer text-2xl font-bold">Quem acessa o quê</summary>
      <div className="mt-4">{opened ? <AccessMatrixBody /> : <p role="status">Carregando...</p>}</div>
    </details>
  );
}

/** The matrix the gate enforces, and per user the pages they open and why. */
function AccessMatrixBody() {
  const [matrix, setMatrix] = useState<AccessMatrix | null>(null);
  const [error, setError] = useState<string>();
  const [query, setQuery] = useState("");
  const [found, setFound] = useState<UserListPage["users"] | null>(null);
  const [userId, setUserId] = useState("");
  const [user, setUser] = useState<UserAccess | null>(null);
  const [userError, setUserError] = useState<string>();

  // At 100,000 users the list cannot ship whole: a search (the admin list's own) picks who, then one user's pages are read.
  async function search(event: FormEvent) {
    event.preventDefault();
    setUserError(undefined);
    const response = await fetch(`/api/admin/users?q=${encodeURIComponent(query)}`, { headers: { Accept: "application/json" } });
    const body = await response.json();
    if (!response.ok) return setUserError(body.error ?? "Erro ao buscar usuários");
    setFound((body as UserListPage).users);
    setUserId("");
    setUser(null);
  }

  async function choose(id: string) {
    setUserId(id);
    setUser(null);
    setUserError(undefined);
    if (!id) return;
    const response = await fetch(`/api/admin/access-matrix?user=${encodeURIComponent(id)}`, { headers: { Accept: "application/json" } });
    const body = await response.json();
    if (!response.ok) return setUserError(body.error ?? "Erro ao carregar as páginas do usuário");
    setUser(body as UserAccess);
  }

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
        <form onSubmit={search} className="flex max-w-md gap-2" role="search">
          <label htmlFor="access-user-search" className="sr-only">
            Buscar usuário por nome ou e-mail
          </label>
          <input
            id="access-user-search"
            type="search"
            value={query}
            onChange={(event) => setQuery(event.target.value)}
            placeholder="Nome ou e-mail"
            className="w-full rounded-md border border-slate-300 bg-white px-3 py-2 dark:border-slate-600 dark:bg-slate-900"
          />
          <button type="submit" className="rounded-md border border-slate-300 px-3 py-2 text-sm font-medium dark:border-slate-600">
            Buscar
          </button>
        </form>
        <label htmlFor="access-user" className="block text-sm font-medium">
          Páginas que um usuário pode abrir
        </label>
        <select
          id="access-user"
          className="w-full max-w-md rounded-md border border-slate-300 bg-white px-3 py-2 dark:border-slate-600 dark:bg-slate-900"
          value={userId}
          onChange={(event) => void choose(event.target.value)}
          disabled={!found?.length}
        >
          <option value="">
            {found === null ? "Busque um usuário acima" : found.length ? "Escolha um usuário" : "Nenhum usuário encontrado"}
          </option>
          {(found ?? []).map((candidate) => (
            <option key={candidate.id} value={candidate.id}>
              {candidate.fullName ? `${candidate.fullName} (${candidate.email})` : candidate.email}
            </option>
          ))}
        </select>
        {userError && <p role="alert">{userError}</p>}
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
