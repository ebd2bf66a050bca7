import { decideAccess, findRoute, type Principal } from "../routes.ts";
import type { RequiredPageSource } from "./required-page.ts";

/**
 * Whether `principal` must read `page`: they may open it (the same decision the gate makes) and,
 * when the editors named roles, they hold one of them. Pages they may not open are never listed,
 * so their titles and summaries never reach them.
 */
export function mustRead(page: RequiredPageSource, principal: Principal): boolean {
  const route = findRoute(page.path);
  if (!route || decideAccess(route, principal) !== "allow") return false;
  return !page.roles || page.roles.some((role) => principal.roles.includes(role));
}

/** One required page as its reader sees it. */
export interface ReadingItem {
  pagina: string;
  titulo: string;
  /** The current version and its summary. */
  versao: number;
  resumo: string;
  /** The newest version this person confirmed, or null. */
  confirmada: number | null;
  /** When they confirmed it (ms since the epoch), or null. */
  confirmadaEm: number | null;
}

export interface ReadingStatus {
  /** Pages whose current version the person has not confirmed. */
  pendentes: number;
  paginas: ReadingItem[];
}

export interface Confirmation {
  pagePath: string;
  version: number;
  confirmedAt: number;
}

/** The reading status of one person: every page they must read, with what they confirmed. */
export function readingStatusOf(
  pages: readonly RequiredPageSource[],
  principal: Principal,
  confirmations: readonly Confirmation[],
): ReadingStatus {
  const newest = new Map<string, Confirmation>();
  for (const row of confirmations) {
    const known = newest.get(row.pagePath);
    if (!known || row.version > known.version) newest.set(row.pagePath, row);
  }
  const paginas = pages
    .filter((page) => mustRead(page, principal))
    .map((page) => {
      const confirmed = newest.get(page.path);
      return {
        pagina: page.path,
        titulo: page.title,
        versao: page.version,
        resumo: page.summary,
        confirmada: confirmed?.version ?? null,
        confirmadaEm: confirmed?.confirmedAt ?? null,
      };
    });
  return { pendentes: paginas.filter((item) => (item.confirmada ?? 0) < item.versao).length, paginas };
}
