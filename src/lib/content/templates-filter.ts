/** The templates filter (spec §5): search in title or description AND the chosen category. */
export interface FilterableTemplate {
  title: string;
  description: string;
  category: string;
}

export const CATEGORY_OPTIONS = [
  { value: "all", label: "Todas as etapas" },
  { value: "ideacao", label: "Ideação" },
  { value: "discovery", label: "Discovery" },
  { value: "planejamento", label: "Planejamento" },
  { value: "execucao", label: "Execução" },
  { value: "documentacao", label: "Documentação" },
  { value: "metodologia", label: "Metodologia" },
  { value: "playbooks", label: "Playbooks" },
] as const;

export function filterTemplates<T extends FilterableTemplate>(templates: readonly T[], search: string, category: string): T[] {
  const needle = search.trim().toLocaleLowerCase("pt-BR");
  return templates.filter(
    (template) =>
      (category === "all" || template.category === category) &&
      (!needle ||
        template.title.toLocaleLowerCase("pt-BR").includes(needle) ||
        template.description.toLocaleLowerCase("pt-BR").includes(needle)),
  );
}
