import { ROUTES, decideAccess, findRoute, type Principal } from "../routes.ts";

/**
 * The search index is split into Pagefind bundles: a base bundle with every page any signed-in user
 * may open by the route table, and one bundle per searchable page (k pages → k + 2 bundles with the
 * empty one). Which bundles a person gets is decided per request from their access, so a limited
 * role or a restriction set in the admin panel changes only what the gate lists and serves — no
 * rebuild. A reader who may open every base page gets the base bundle plus the gated pages they may
 * open (as before); anyone else gets one of their pages' bundles as the primary and the rest merged
 * (`mergeIndex`). No result, excerpt or fragment of another page ever reaches them.
 */
export const BASE_BUNDLE = "base";
/** The primary bundle of someone who may open no searchable page (an index of nothing). */
export const EMPTY_BUNDLE = "_vazio";
/** `dist/search/indice.json`: the base bundle's pages and every searchable page (each with its own bundle). */
export const SEARCH_MANIFEST_FILE = "indice.json";

export interface SearchManifest {
  base: readonly string[];
  pages: readonly string[];
}

/** Role-gated routes whose pages carry searchable content (the admin screens do not). */
export function gatedSearchablePaths(searchable: ReadonlySet<string>): string[] {
  return ROUTES.filter((route) => route.access.kind === "roles" && searchable.has(route.path))
    .map((route) => route.path)
    .sort();
}

/** The bundle of the home page `/` (a name no route path gives: routes have no leading underscore). */
export const HOME_BUNDLE = "_inicio";

/** Bundle name of a page's own bundle (`/comite-ia` → `comite-ia`; nested paths join with `~`; `/` → `_inicio`). */
export function groupKey(pagePath: string): string {
  return pagePath === "/" ? HOME_BUNDLE : pagePath.slice(1).split("/").join("~");
}

/** The bundle served under /pagefind/ and the bundles listed in grupos.json (served under /pagefind/grupos/<key>/). */
export interface SearchPlan {
  primary: string;
  groups: string[];
}

/** Which bundles a principal reads: decided by the gate's own rule (decideAccess) for each searchable page. */
export function searchPlan(principal: Principal, manifest: SearchManifest): SearchPlan {
  const open = manifest.pages.filter((path) => {
    const route = findRoute(path);
    return route !== undefined && decideAccess(route, principal) === "allow";
  });
  const base = new Set(manifest.base);
  if (manifest.base.length > 0 && manifest.base.every((path) => open.includes(path))) {
    return { primary: BASE_BUNDLE, groups: open.filter((path) => !base.has(path)).map(groupKey) };
  }
  const [first, ...rest] = open.map(groupKey);
  return { primary: first ?? EMPTY_BUNDLE, groups: rest };
}
