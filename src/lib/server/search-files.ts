import type { SearchFiles } from "../../server/gate.ts";
import type { Asset } from "./static-files.ts";

/** Search bundles are added with the search feature; until then no index file is served. */
export function loadSearchBundles(_dir: string): SearchFiles {
  const empty = new Map<string, Asset>();
  return { lookup: (_principal, path) => empty.get(path) };
}
