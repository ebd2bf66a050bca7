export const MISSING_DESCRIPTION = "Descrição não disponível para esta ferramenta.";

/**
 * Learn-more texts by name: the tool descriptions first, then each template's catalogue
 * description, so a stage template never falls back while /templates already explains it.
 */
export function toolDescriptionMap(
  toolDescriptions: readonly { id: string; description: string }[],
  templates: readonly { title: string; description: string }[],
): Map<string, string> {
  return new Map([
    ...templates.map((template) => [template.title, template.description] as const),
    ...toolDescriptions.map((tool) => [tool.id, tool.description] as const),
  ]);
}

/** Looks up a tool's explanation by name, with the spec's fallback. */
export function describeTool(descriptions: ReadonlyMap<string, string>, name: string): string {
  return descriptions.get(name) ?? MISSING_DESCRIPTION;
}

/** Address of a tool or template by name ('' when none is published). */
export function linkForTool(links: ReadonlyMap<string, string>, name: string): string {
  return links.get(name) ?? "";
}
