import { useMemo } from "react";
import { EmptyState, SearchField } from "../ui/SearchField";
import SingleAccordion from "../content/SingleAccordion";
import { searchFaq } from "../../../lib/search/text";
import { useQueryState } from "../ui/use-query-state";

export interface FaqEntry {
  id: string;
  question: string;
  answer: string;
}

/** /faq: live search over question and answer (kept in the address) + single-open accordion. */
export default function FaqSearch({ entries }: { entries: FaqEntry[] }) {
  const [search, setSearch] = useQueryState("busca");
  const visible = useMemo(() => searchFaq(entries, search), [entries, search]);
  return (
    <div>
      <div className="mb-6">
        <SearchField label="Buscar perguntas" placeholder="Buscar perguntas..." value={search} onChange={setSearch} />
      </div>
      {visible.length === 0 ? (
        <EmptyState title="Nenhuma pergunta encontrada" hint="Tente ajustar o termo de busca" />
      ) : (
        <SingleAccordion
          name="faq"
          label="Perguntas frequentes"
          items={visible.map((e) => ({ id: e.id, title: e.question, body: [e.answer] }))}
        />
      )}
    </div>
  );
}
