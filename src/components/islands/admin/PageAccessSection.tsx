import { lazy, Suspense, useCallback, useEffect, useState } from "react";
import { Lock } from "lucide-react";
import type { PageAccessEntry } from "../../../lib/admin/types";
import { audienceText } from "../../../lib/admin/labels";
import { toast } from "../ui/toast";
import { ghostButton } from "./styles";
import type { RoleRow } from "./types";

const loadDialog = () => import("./PageAccessDialog");
const PageAccessDialog = lazy(loadDialog);
const preload = () => void loadDialog();

const GROUP_LABELS: Record<PageAccessEntry["group"], string> = {
  conteudo: "Conteúdo",
  restritas: "Restritas",
  administracao: "Administração",
};

/**
 * 'Quem pode abrir esta página': every page an admin may restrict, its default and current
 * audience, and a dialog to choose roles or restore the default (applied at the next request).
 */
export default function PageAccessSection({ roles, onChanged }: { roles: RoleRow[]; onChanged: () => Promise<void> }) {
  const [pages, setPages] = useState<PageAccessEntry[]>([]);
  const [editing, setEditing] = useState<PageAccessEntry | null>(null);

  const reload = useCallback(async () => {
    const response = await fetch("/api/admin/page-access", { headers: { Accept: "application/json" } });
    if (!response.ok) return toast.error("Erro", { description: "Erro ao carregar o acesso às páginas" });
    setPages(((await response.json()) as { pages: PageAccessEntry[] }).pages);
  }, []);

  useEffect(() => {
    void reload();
  }, [reload]);

  return (
    <section aria-labelledby="page-access-title" className="mt-8">
      <h2 id="page-access-title" className="mb-1 text-lg font-bold">
        Quem pode abrir cada página
      </h2>
      <p className="mb-3 text-sm text-slate-600 dark:text-slate-300">
        Restrinja uma página a perfis escolhidos, sem novo build: vale na próxima requisição, em todas as instâncias. O padrão vem do
        conteúdo (campo <code>access</code>) ou da tabela de rotas e pode ser restaurado.
      </p>
      <div className="overflow-x-auto rounded-lg border border-slate-200 dark:border-slate-700">
        <table className="w-full text-left text-sm">
          <thead className="bg-slate-50 dark:bg-slate-800">
            <tr>
              <th className="px-3 py-2">Página</th>
              <th className="px-3 py-2">Grupo</th>
              <th className="px-3 py-2">Padrão</th>
              <th className="px-3 py-2">Quem pode abrir</th>
              <th className="px-3 py-2 text-right">Ações</th>
            </tr>
          </thead>
          <tbody>
            {pages.map((page) => (
              <tr key={page.path} className="border-t border-slate-200 dark:border-slate-700">
                <td className="px-3 py-2 font-medium">
                  {page.name} <span className="text-xs text-slate-600 dark:text-slate-300">{page.path}</span>
                </td>
                <td className="px-3 py-2">{GROUP_LABELS[page.group]}</td>
                <td className="px-3 py-2">{audienceText(page.defaultRoles)}</td>
                <td className="px-3 py-2">
                  {page.roles === null ? (
                    "Padrão"
                  ) : (
                    <span className="inline-flex items-center gap-1">
                      <Lock className="size-3.5" aria-hidden="true" /> Restrita: {audienceText(page.roles)}
                    </span>
                  )}
                </td>
                <td className="px-3 py-2 text-right">
                  <button type="button" className={ghostButton} onPointerEnter={preload} onFocus={preload} onClick={() => setEditing(page)}>
                    Alterar<span className="sr-only"> quem pode abrir {page.name}</span>
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {editing && (
        <Suspense fallback={null}>
          <PageAccessDialog
            page={editing}
            roles={roles}
            onClose={() => setEditing(null)}
            onSaved={() => {
              setEditing(null);
              void reload();
              void onChanged();
            }}
          />
        </Suspense>
      )}
    </section>
  );
}
