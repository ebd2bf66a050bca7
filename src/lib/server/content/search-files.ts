import fs from "node:fs";
import path from "node:path";
import type { Principal } from "../../routes.ts";
import { BASE_BUNDLE, groupsFor } from "../../search/bundles.ts";
import { listFiles } from "../platform/files.ts";
import { compressBody, contentType, type Asset } from "./static-files.ts";

/** The search files the gate serves under /pagefind/. */
export interface SearchFiles {
  /** Returns the file of `path` (below /pagefind/) from the bundle this principal may read. */
  lookup(principal: Principal, path: string): Asset | undefined;
}

/** `/pagefind/grupos/<key>/<file>`: a file of a gated page's bundle. */
const GROUP_FILE = /^\/grupos\/([^/]+)(\/.+)$/;

/**
 * Loads every search bundle (dist/search/<key>/pagefind/…) into memory at start. The gate serves
 * `/pagefind/*` from the base bundle, `/pagefind/grupos.json` as the list of gated groups this
 * principal may read, and `/pagefind/grupos/<key>/*` only to those who may open that page.
 */
export function loadSearchBundles(dir: string): SearchFiles {
  const bundles = new Map<string, Map<string, Asset>>();
  if (fs.existsSync(dir)) {
    for (const key of fs.readdirSync(dir)) {
      const root = path.join(dir, key, "pagefind");
      if (!fs.existsSync(root)) continue;
      const files = new Map<string, Asset>();
      for (const file of listFiles(root)) {
        const rel = "/" + path.relative(root, file).split(path.sep).join("/");
        // Fragments and indexes are already compressed by Pagefind; text files are compressed here.
        const compressible = /\.(js|css|json)$/.test(file);
        files.set(rel, { ...compressBody(fs.readFileSync(file), compressible), type: contentType(file), immutable: false });
      }
      bundles.set(key, files);
    }
  }
  const gatedPaths = [...bundles.keys()]
    .filter((key) => key !== BASE_BUNDLE)
    .map((key) => "/" + key.split("~").join("/"))
    .sort();
  const groupLists = new Map<string, Asset>();
  const groupList = (groups: string[]): Asset => {
    const body = JSON.stringify(groups);
    let asset = groupLists.get(body);
    if (!asset) groupLists.set(body, (asset = { ...compressBody(Buffer.from(body)), type: contentType("grupos.json"), immutable: false }));
    return asset;
  };
  return {
    lookup(principal: Principal, filePath: string) {
      if (filePath === "/grupos.json") return groupList(groupsFor(principal, gatedPaths));
      const group = GROUP_FILE.exec(filePath);
      if (!group) return bundles.get(BASE_BUNDLE)?.get(filePath);
      const [, key, rest] = group;
      if (key === BASE_BUNDLE || !groupsFor(principal, gatedPaths).includes(key!)) return undefined;
      return bundles.get(key!)?.get(rest!);
    },
  };
}
