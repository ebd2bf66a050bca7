import { useMemo, useState } from "react";
import { Search, SearchX } from "lucide-react";
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
      <div className="relative mb-6">
        <Search className="absolute top-2.5 left-3 size-4 text-slate-400" aria-hidden="true" />
        <input
          type="search"
          aria-label="Buscar termo ou definição"
          placeholder="Buscar termo ou definição..."
          value={search}
          onChange={(event) => setSearch(event.target.value)}
          className="w-full rounded-md border border-slate-300 bg-white py-2 pr-3 pl-9 dark:border-slate-600 dark:bg-slate-900"
        />
      </div>
      {visible.length === 0 ? (
        <div className="rounded-xl border border-dashed border-slate-300 p-10 text-center dark:border-slate-600">
          <SearchX className="mx-auto mb-3 size-10 text-slate-400" aria-hidden="true" />
          <p className="font-semibold">Termo não encontrado</p>
          <p className="text-sm text-slate-500">Tente buscar outro termo ou sugira uma nova definição ao time de metodologia.</p>
        </div>
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
