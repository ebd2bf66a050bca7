import fs from "node:fs";
import path from "node:path";
import type { Principal } from "../../routes.ts";
import { BASE_BUNDLE, SEARCH_MANIFEST_FILE, searchPlan, type SearchManifest, type SearchPlan } from "../../search/bundles.ts";
import { listFiles } from "../platform/files.ts";
import { compressBody, contentType, etagOf, type Asset } from "./static-files.ts";

/** The search files the gate serves under /pagefind/. */
export interface SearchFiles {
  /** Returns the file of `path` (below /pagefind/) from the bundles this principal may read. */
  lookup(principal: Principal, path: string): Asset | undefined;
}

/** `/pagefind/grupos/<key>/<file>`: a file of a page's own bundle. */
const GROUP_FILE = /^\/grupos\/([^/]+)(\/.+)$/;

/**
 * Loads every search bundle (dist/search/<key>/pagefind/…) into memory at start. Per principal (once
 * per principal object: a role or restriction change builds new principals, see sessions/cache.ts)
 * the gate picks the primary bundle served under `/pagefind/*` and the groups listed in
 * `/pagefind/grupos.json` and served under `/pagefind/grupos/<key>/*` (see search/bundles.ts).
 */
export function loadSearchBundles(dir: string): SearchFiles {
  const bundles = new Map<string, Map<string, Asset>>();
  // The bundles (one per page) share Pagefind's scripts byte for byte: each distinct file is
  // compressed once. Compressing 18 bundles one by one took ~4.5 s of every start.
  const compressed = new Map<string, ReturnType<typeof compressBody>>();
  const bodyOf = (raw: Buffer, compressible: boolean) => {
    const key = `${compressible ? "z" : "-"}${etagOf(raw)}`;
    let body = compressed.get(key);
    if (!body) compressed.set(key, (body = compressBody(raw, compressible)));
    return body;
  };
  if (fs.existsSync(dir)) {
    for (const key of fs.readdirSync(dir)) {
      const root = path.join(dir, key, "pagefind");
      if (!fs.existsSync(root)) continue;
      const files = new Map<string, Asset>();
      for (const file of listFiles(root)) {
        const rel = "/" + path.relative(root, file).split(path.sep).join("/");
        // Fragments and indexes are already compressed by Pagefind; text files are compressed here.
        const compressible = /\.(js|css|json)$/.test(file);
        files.set(rel, { ...bodyOf(fs.readFileSync(file), compressible), type: contentType(file), immutable: false });
      }
      bundles.set(key, files);
    }
  }
  const manifestFile = path.join(dir, SEARCH_MANIFEST_FILE);
  const manifest: SearchManifest = fs.existsSync(manifestFile)
    ? (JSON.parse(fs.readFileSync(manifestFile, "utf8")) as SearchManifest)
    : { base: [], pages: [] };
  const groupLists = new Map<string, Asset>();
  const groupList = (groups: string[]): Asset => {
    const body = JSON.stringify(groups);
    let asset = groupLists.get(body);
    if (!asset) groupLists.set(body, (asset = { ...compressBody(Buffer.from(body)), type: contentType("grupos.json"), immutable: false }));
    return asset;
  };
  const plans = new WeakMap<Principal, SearchPlan & { list: Asset }>();
  const planOf = (principal: Principal) => {
    let plan = plans.get(principal);
    if (!plan) {
      const decided = manifest.pages.length ? searchPlan(principal, manifest) : { primary: BASE_BUNDLE, groups: [] };
      plans.set(principal, (plan = { ...decided, list: groupList(decided.groups) }));
    }
    return plan;
  };
  return {
    lookup(principal: Principal, filePath: string) {
      const plan = planOf(principal);
      if (filePath === "/grupos.json") return plan.list;
      const group = GROUP_FILE.exec(filePath);
      if (!group) return bundles.get(plan.primary)?.get(filePath);
      const [, key, rest] = group;
      if (!plan.groups.includes(key!)) return undefined;
      return bundles.get(key!)?.get(rest!);
    },
  };
}
