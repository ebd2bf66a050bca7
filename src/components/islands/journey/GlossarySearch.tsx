import { useMemo } from "react";
import { EmptyState, SearchField } from "../ui/SearchField";
import { searchGlossary } from "../../../lib/search/text";
import { useQueryState } from "../ui/use-query-state";

export interface GlossaryEntry {
  id: string;
  term: string;
  definition: string;
  category: string;
  context: string;
}

const pill =
  "rounded-full px-3 py-1 text-sm focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 aria-pressed:bg-slate-900 aria-pressed:font-semibold aria-pressed:text-white dark:aria-pressed:bg-white dark:aria-pressed:text-slate-900";

/** /glossario: a category filter (toggle buttons) and live search over term, definition and context, both kept in the address. */
export default function GlossarySearch({ terms, categories }: { terms: GlossaryEntry[]; categories: readonly string[] }) {
  const [search, setSearch] = useQueryState("busca");
  const [chosen, setChosen] = useQueryState("categoria");
  const category = categories.includes(chosen) ? chosen : null;
  const setCategory = (name: string | null) => setChosen(name ?? "");
  const counts = useMemo(
    () => categories.map((name) => ({ name, count: terms.filter((t) => t.category === name).length })).filter((c) => c.count > 0),
    [terms, categories],
  );
  const visible = useMemo(
    () => searchGlossary(category ? terms.filter((t) => t.category === category) : terms, search),
    [terms, category, search],
  );
  const choice = (name: string | null, label: string) => (
    <button
      type="button"
      aria-pressed={category === name}
      onClick={() => setCategory(name)}
      className={`${pill} ${category === name ? "" : "bg-slate-100 hover:bg-slate-200 dark:bg-slate-800 dark:hover:bg-slate-700"}`}
    >
      {label}
    </button>
  );
  return (
    <div>
      <div role="group" aria-label="Filtrar por categoria" className="mb-4 flex flex-wrap gap-2">
        {choice(null, `Todos (${terms.length})`)}
        {counts.map((c) => (
          <span key={c.name}>{choice(c.name, `${c.name} (${c.count})`)}</span>
        ))}
      </div>
      <div className="mb-6">
        <SearchField label="Buscar termo ou definição" placeholder="Buscar termo ou definição..." value={search} onChange={setSearch} />
      </div>
      <p className="sr-only" aria-live="polite">
        {visible.length} {visible.length === 1 ? "termo" : "termos"}
      </p>
      {visible.length === 0 ? (
        <EmptyState title="Termo não encontrado" hint="Tente buscar outro termo ou sugira uma nova definição ao time de metodologia." />
      ) : (
        <ul className="grid gap-4 md:grid-cols-2">
          {visible.map((term) => (
            <li key={term.id} id={term.id} className="rounded-xl border border-slate-200 p-5 dark:border-slate-700">
              <div className="mb-2 flex items-center justify-between gap-2">
                <h3 className="text-lg font-bold">{term.term}</h3>
                <span className="rounded-full bg-brand-100 px-2.5 py-0.5 text-xs font-semibold text-brand-700">{term.category}</span>
              </div>
              <p className="text-slate-700 dark:text-slate-300">{term.definition}</p>
              <p className="mt-2 text-sm text-slate-500">
                <strong>Contexto:</strong> {term.context}
              </p>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
