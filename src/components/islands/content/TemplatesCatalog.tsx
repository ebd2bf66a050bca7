import { useMemo, useRef } from "react";
import { ChevronDown } from "lucide-react";
import { EmptyState, SearchField } from "../ui/SearchField";
import { useTypedBeforeHydration } from "../ui/typed-before-hydration";
import { useQueryState } from "../ui/use-query-state";
import { CATEGORY_OPTIONS, filterTemplates, isAvailable } from "../../../lib/content/templates-filter";
import { LinkAction } from "./LinkAction";
import { DOWNLOADS_URL_PREFIX } from "../../../lib/content/downloads";
import { CLOSED_LINK } from "../../../lib/content/closed-link";

export interface TemplateCard {
  id: string;
  title: string;
  description: string;
  category: string;
  tools: string[];
  format: string;
  stage: string;
  /** Tailwind classes for the colour strip. */
  accent: string;
  link: string;
}

/** /templates: live search + category filter over the catalogue (content comes as props); both kept in the address. */
export default function TemplatesCatalog({ templates }: { templates: TemplateCard[] }) {
  const [search, setSearch] = useQueryState("busca");
  const [chosen, setCategory] = useQueryState("etapa", "all");
  // A hand-edited address may name no category: show them all rather than an empty list.
  const category = CATEGORY_OPTIONS.some((option) => option.value === chosen) ? chosen : "all";
  const categoryField = useRef<HTMLSelectElement>(null);
  useTypedBeforeHydration(categoryField, category, setCategory);
  const [availableParam, setAvailableParam] = useQueryState("disponiveis");
  const onlyAvailable = availableParam === "1";
  const visible = useMemo(() => filterTemplates(templates, search, category, onlyAvailable), [templates, search, category, onlyAvailable]);
  const available = useMemo(() => templates.filter(isAvailable).length, [templates]);

  return (
    <div>
      <div className="mb-6 flex flex-col gap-3 md:flex-row">
        <SearchField label="Buscar templates" placeholder="Buscar templates..." value={search} onChange={setSearch} />
        <div className="relative">
          <select
            ref={categoryField}
            aria-label="Filtrar por etapa"
            value={category}
            onChange={(event) => setCategory(event.target.value)}
            className="w-full min-w-56 appearance-none rounded-md border border-slate-300 bg-white py-2 pr-9 pl-3 dark:border-slate-600 dark:bg-slate-900"
          >
            {CATEGORY_OPTIONS.map((option) => (
              <option key={option.value} value={option.value}>
                {option.value === "all" ? "Filtrar por etapa" : option.label}
              </option>
            ))}
          </select>
          <ChevronDown className="pointer-events-none absolute top-2.5 right-3 size-4" aria-hidden="true" />
        </div>
      </div>
      <div className="mb-4 flex flex-wrap items-center justify-between gap-2 text-sm">
        <p className="text-slate-500">
          <span aria-live="polite">
            {visible.length} de {templates.length} templates
          </span>
          <span data-pagefind-ignore> · {available} disponíveis para baixar ou abrir</span>
        </p>
        <label data-pagefind-ignore className="inline-flex items-center gap-2">
          <input
            type="checkbox"
            checked={onlyAvailable}
            onChange={(event) => setAvailableParam(event.target.checked ? "1" : "")}
            className="size-4 accent-brand-600"
          />
          Mostrar só os disponíveis
        </label>
      </div>
      {visible.length === 0 ? (
        <EmptyState title="Nenhum template encontrado" hint="Tente ajustar os filtros ou termo de busca" />
      ) : (
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {visible.map((template) => (
            <li
              key={template.id}
              className="flex flex-col overflow-hidden rounded-xl border border-slate-200 bg-white has-[:target]:ring-2 has-[:target]:ring-brand-500 dark:border-slate-700 dark:bg-slate-900"
            >
              <span className={`h-1.5 ${template.accent}`} />
              <div className="flex flex-1 flex-col p-5">
                {/* The title comes first in the page (the chips are shown above it): the search's sub-result
                    for this card starts at its heading's id and holds only this card's fields. */}
                <h3 id={`template-${template.id}`} className="scroll-mt-24 font-semibold">
                  {template.title}
                </h3>
                {/* One block per chip: the index reads "Etapa: Ideação. Formato: Quadro.", never "IdeaçãoQuadro". */}
                <div className="order-first mb-2 flex flex-wrap gap-2 text-xs">
                  <div className="rounded-full bg-slate-100 px-2 py-0.5 dark:bg-slate-800">
                    <span className="sr-only">Etapa: </span>
                    {template.stage}
                  </div>
                  <div className="rounded-full bg-slate-100 px-2 py-0.5 dark:bg-slate-800">
                    <span className="sr-only">Formato: </span>
                    {template.format}
                  </div>
                </div>
                <p className="mt-1 flex-1 text-sm text-slate-600 dark:text-slate-300">{template.description}</p>
                <p className="mt-3 text-xs text-slate-500">Ferramentas: {template.tools.join(", ")}</p>
                <div className="mt-4">
                  <LinkAction
                    name={template.title}
                    link={template.link}
                    label={
                      template.link === CLOSED_LINK || (template.link.startsWith("/") && !template.link.startsWith(DOWNLOADS_URL_PREFIX))
                        ? "Abrir"
                        : "Baixar"
                    }
                  />
                </div>
              </div>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
