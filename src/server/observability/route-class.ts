/** Coarse request classes: metric labels stay few whatever paths clients send. */
export type RouteClass = "health" | "metrics" | "asset" | "search" | "api" | "page" | "other";

export const ROUTE_CLASSES: readonly RouteClass[] = ["health", "metrics", "asset", "search", "api", "page", "other"];

/** Classifies a normalised path the way the gate routes it. */
export function createRouteClassifier(isAsset: (path: string) => boolean, isPage: (path: string) => boolean) {
  return function classifyRoute(path: string | null): RouteClass {
    if (path === null) return "other";
    if (path === "/healthz" || path === "/readyz") return "health";
    if (path === "/metrics") return "metrics";
    if (path === "/pagefind" || path.startsWith("/pagefind/")) return "search";
    if (path === "/api" || path.startsWith("/api/") || path.startsWith("/_actions/") || path.startsWith("/_server-islands/")) return "api";
    if (isAsset(path)) return "asset";
    if (isPage(path)) return "page";
    return "other";
  };
}
