import { ROUTES, decideAccess, type Principal } from "../routes.ts";

/**
 * The search index is split into one Pagefind bundle per access group: a base bundle with every
 * page any signed-in user may open, and one bundle per role-gated searchable page (grants are per
 * page, so each gated page is its own group). The browser merges the groups a person may read
 * (Pagefind `mergeIndex`) into the base one; the gate lists and serves only those, so no result,
 * excerpt or fragment of another page ever reaches them. k gated pages → k + 1 bundles.
 */
export const BASE_BUNDLE = "base";

/** Role-gated routes whose pages carry searchable content (the admin screens do not). */
export function gatedSearchablePaths(searchable: ReadonlySet<string>): string[] {
  return ROUTES.filter((route) => route.access.kind === "roles" && searchable.has(route.path))
    .map((route) => route.path)
    .sort();
}

/** Bundle name of a gated page's group (`/comite-ia` → `comite-ia`; nested paths join with `~`). */
export function groupKey(gatedPath: string): string {
  return gatedPath.slice(1).split("/").join("~");
}

/** The gated groups a principal may read, by key. */
export function groupsFor(principal: Principal, gated: readonly string[]): string[] {
  return gated
    .filter((path) => {
      const route = ROUTES.find((candidate) => candidate.path === path);
      return route !== undefined && decideAccess(route, principal) === "allow";
    })
    .map(groupKey);
}
