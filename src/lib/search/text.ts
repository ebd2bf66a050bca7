/** The one case- and accent-insensitive search normaliser: FAQ, glossary, templates and the admin user list. */
export function normalizeForSearch(text: string): string {
  return text
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLocaleLowerCase("pt-BR");
}

export function matchesSearch(fields: readonly string[], search: string): boolean {
  const needle = normalizeForSearch(search.trim());
  return !needle || fields.some((field) => normalizeForSearch(field).includes(needle));
}

export function searchFaq<T extends { question: string; answer: string }>(entries: readonly T[], search: string): T[] {
  return entries.filter((entry) => matchesSearch([entry.question, entry.answer], search));
}

export function searchGlossary<T extends { term: string; definition: string; context: string }>(terms: readonly T[], search: string): T[] {
  return terms.filter((term) => matchesSearch([term.term, term.definition, term.context], search));
}
