import { useMemo, useState } from "react";
import { EmptyState, SearchField } from "../ui/SearchField";
import { searchGlossary } from "../../../lib/search-text";

export interface GlossaryEntry {
  id: string;
  term: string;
  definition: string;
  category: string;
  context: string;
}

/** /glossario: live search over term, definition and context. */
export default function GlossarySearch({ terms }: { terms: GlossaryEntry[] }) {
  const [search, setSearch] = useState("");
  const visible = useMemo(() => searchGlossary(terms, search), [terms, search]);
  return (
    <div>
      <div className="mb-6">
        <SearchField label="Buscar termo ou definição" placeholder="Buscar termo ou definição..." value={search} onChange={setSearch} />
      </div>
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
