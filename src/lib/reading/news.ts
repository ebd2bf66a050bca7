import { decideAccess, findRoute, type Principal } from "../routes.ts";

/** One content change: a commit that touched what a page shows. */
export interface NewsItem {
  /** Stable id (commit and page), used as the paging cursor. */
  id: string;
  pagina: string;
  titulo: string;
  /** ISO 8601 date of the commit. */
  data: string;
  /**
   * The new version's summary when the commit raised a required page's version, else the commit's
   * `Novidade:` line, else what the diff shows (sections or entries added, changed, removed).
   */
  resumo: string;
  /** Sections of the page added or changed by the commit, to link to (only when the summary came from the diff). */
  secoes?: NewsSection[];
}

export interface NewsSection {
  /** The heading's id on the page. */
  id: string;
  titulo: string;
}

export interface NewsManifest {
  /** Newest first. */
  items: NewsItem[];
}

export const NEWS_MANIFEST_FILE = "novidades.json";
export const NEWS_PAGE_SIZE = 20;

export interface NewsPage {
  itens: NewsItem[];
  /** Cursor for the next (older) page, or null at the end. */
  proximo: string | null;
}

/**
 * A page of changes `principal` may see, newest first, after the item `before` (the cursor). A
 * change of a page they may not open is left out entirely: its title and summary never reach them.
 */
export function newsPageFor(items: readonly NewsItem[], principal: Principal, before: string | null, limit = NEWS_PAGE_SIZE): NewsPage {
  const visible = items.filter((item) => {
    const route = findRoute(item.pagina);
    return route !== undefined && decideAccess(route, principal) === "allow";
  });
  const start = before === null ? 0 : visible.findIndex((item) => item.id === before) + 1;
  if (before !== null && start === 0) return { itens: [], proximo: null };
  const itens = visible.slice(start, start + limit);
  return { itens, proximo: start + limit < visible.length ? itens.at(-1)!.id : null };
}
