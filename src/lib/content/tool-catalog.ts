export const MISSING_DESCRIPTION = "Descrição não disponível para esta ferramenta.";

/** Looks up a tool's explanation by name, with the spec's fallback. */
export function describeTool(descriptions: ReadonlyMap<string, string>, name: string): string {
  return descriptions.get(name) ?? MISSING_DESCRIPTION;
}

/** Address of a tool or template by name ('' when none is published). */
export function linkForTool(links: ReadonlyMap<string, string>, name: string): string {
  return links.get(name) ?? "";
}
