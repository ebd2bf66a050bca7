import { parse, type Filter } from "scim2-parse-filter";

/** One `attribute eq value` test of a list filter, the attribute lower-cased. */
export interface EqualityTest {
  attribute: string;
  value: string;
}

export type ParsedFilter = { ok: true; tests: EqualityTest[] } | { ok: false; detail: string };

const UNSUPPORTED = "Filtro não suportado: use comparações `eq` (ligadas por `and`) sobre os atributos pesquisáveis.";

/**
 * The `filter` query parameter as a list of equality tests joined by `and` — what Entra ID and Okta
 * send (`userName eq "…"`, `externalId eq "…"`, `displayName eq "…"`). A `emails[type eq "work"]`
 * part is dropped: the portal keeps one e-mail per person, the work one. Anything else is refused.
 */
export function parseEqualityFilter(text: string | null, searchable: readonly string[]): ParsedFilter {
  if (text === null || text.trim() === "") return { ok: true, tests: [] };
  let filter: Filter;
  try {
    filter = parse(text);
  } catch {
    return { ok: false, detail: "Filtro mal formado." };
  }
  const tests: EqualityTest[] = [];
  const collect = (node: Filter): boolean => {
    if (node.op === "and") return node.filters.every(collect);
    if (node.op === "[]") return node.attrPath.toLowerCase() === "emails" && isWorkType(node.valFilter);
    if (node.op !== "eq" || typeof node.compValue !== "string") return false;
    const attribute = node.attrPath.toLowerCase().replace(/^urn:ietf:params:scim:schemas:core:2\.0:(user|group):/, "");
    if (!searchable.includes(attribute)) return false;
    tests.push({ attribute, value: node.compValue });
    return true;
  };
  return collect(filter) ? { ok: true, tests } : { ok: false, detail: UNSUPPORTED };
}

function isWorkType(node: Filter): boolean {
  return node.op === "eq" && node.attrPath.toLowerCase() === "type" && node.compValue === "work";
}
