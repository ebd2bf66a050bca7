import { matchesSearch } from "../search/text.ts";

/** The templates filter: search in title or description (accents and case ignored) AND the chosen category. */
export interface FilterableTemplate {
  title: string;
  description: string;
  category: string;
  /** Where its action points ('' while it reads 'Em breve'). */
  link?: string;
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

/** Templates whose download (a link or a file kept in git) is available. */
export const isAvailable = (template: FilterableTemplate) => Boolean(template.link);

/** `onlyAvailable` keeps only the templates that can already be downloaded or opened. */
export function filterTemplates<T extends FilterableTemplate>(
  templates: readonly T[],
  search: string,
  category: string,
  onlyAvailable = false,
): T[] {
  return templates.filter(
    (template) =>
      (category === "all" || template.category === category) &&
      (!onlyAvailable || isAvailable(template)) &&
      matchesSearch([template.title, template.description], search),
  );
}
