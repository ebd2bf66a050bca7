import { ROUTES, decideAccess, type Principal } from "./routes.ts";

/**
 * The search index is split into one bundle per access set: pages every signed-in user may
 * open go into every bundle, and each role-gated searchable page doubles the bundles. A
 * principal gets the bundle whose gated pages are exactly the ones they may open, so no
 * result, excerpt or fragment of another page ever reaches them.
 */
export const BASE_BUNDLE = "base";

/** Role-gated routes whose pages carry searchable content (the admin screens do not). */
export function gatedSearchablePaths(searchable: ReadonlySet<string>): string[] {
  return ROUTES.filter((route) => route.access.kind === "roles" && searchable.has(route.path))
    .map((route) => route.path)
    .sort();
}

export function bundleKey(gatedPaths: readonly string[]): string {
  return gatedPaths.length
    ? gatedPaths
        .map((path) => path.slice(1))
        .sort()
        .join("+")
    : BASE_BUNDLE;
}

/** Every subset of the gated pages (2^k bundles). */
export function allBundles(gated: readonly string[]): string[][] {
  if (gated.length > 6) throw new Error(`Páginas restritas pesquisáveis demais (${gated.length}): reveja o desenho dos pacotes de busca`);
  const subsets: string[][] = [];
  for (let mask = 0; mask < 1 << gated.length; mask++) subsets.push(gated.filter((_, i) => mask & (1 << i)));
  return subsets;
}

/** The bundle a principal may read. */
export function bundleFor(principal: Principal, gated: readonly string[]): string {
  return bundleKey(
    gated.filter(
      (path) =>
        decideAccess(
          ROUTES.find((r) => r.path === path)!,
          principal,
        ) === "allow",
    ),
  );
}
