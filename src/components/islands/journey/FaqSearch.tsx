import { useMemo, useState } from "react";
import { Search, SearchX } from "lucide-react";
import SingleAccordion from "../content/SingleAccordion";
import { searchFaq } from "../../../lib/search-text";

export interface FaqEntry {
  id: string;
  question: string;
  answer: string;
}

/** /faq: live search over question and answer + single-open accordion. */
export default function FaqSearch({ entries }: { entries: FaqEntry[] }) {
  const [search, setSearch] = useState("");
  const visible = useMemo(() => searchFaq(entries, search), [entries, search]);
  return (
    <div>
      <div className="relative mb-6">
        <Search className="absolute top-2.5 left-3 size-4 text-slate-400" aria-hidden="true" />
        <input
          type="search"
          aria-label="Buscar perguntas"
          placeholder="Buscar perguntas..."
          value={search}
          onChange={(event) => setSearch(event.target.value)}
          className="w-full rounded-md border border-slate-300 bg-white py-2 pr-3 pl-9 dark:border-slate-600 dark:bg-slate-900"
        />
      </div>
      {visible.length === 0 ? (
        <div className="rounded-xl border border-dashed border-slate-300 p-10 text-center dark:border-slate-600">
          <SearchX className="mx-auto mb-3 size-10 text-slate-400" aria-hidden="true" />
          <p className="font-semibold">Nenhuma pergunta encontrada</p>
          <p className="text-sm text-slate-500">Tente ajustar o termo de busca</p>
        </div>
      ) : (
        <SingleAccordion label="Perguntas frequentes" items={visible.map((e) => ({ id: e.id, title: e.question, body: [e.answer] }))} />
      )}
    </div>
  );
}
