import fs from "node:fs";
import path from "node:path";
import type { Principal } from "../../routes.ts";
import { BASE_BUNDLE, SEARCH_MANIFEST_FILE, searchPlan, type SearchManifest, type SearchPlan } from "../../search/bundles.ts";
import type { TermsFile } from "../../search/query.ts";
import { TERMS_FILE, VOCABULARY_FILE } from "../../search/terms.ts";
import { listFiles } from "../platform/files.ts";
import { compressBody, contentType, etagOf, type Asset, type Body } from "./static-files.ts";

/**
 * Pagefind's text files; its fragments and indexes come compressed already. scripts/build-search.ts
 * writes their .br and .gz beside them, so a start reads them instead of compressing them (that was
 * ~0.2 s of CPU in every start of the gate; the bundles share Pagefind's scripts byte for byte, and
 * each distinct file was compressed once).
 */
export function isCompressibleSearchFile(file: string): boolean {
  return /\.(js|css|json)$/.test(file);
}

/** The file's .br and .gz from the build, each kept only when it saves bytes; null when the build wrote none. */
function precompressed(file: string, raw: Buffer): Body | null {
  if (!fs.existsSync(`${file}.br`) || !fs.existsSync(`${file}.gz`)) return null;
  const body: Body = { raw, etag: etagOf(raw) };
  const br = fs.readFileSync(`${file}.br`);
  const gzip = fs.readFileSync(`${file}.gz`);
  if (br.length < raw.length) body.br = br;
  if (gzip.length < raw.length) body.gzip = gzip;
  return body;
}

/** The search files the gate serves under /pagefind/. */
export interface SearchFiles {
  /** Returns the file of `path` (below /pagefind/) from the bundles this principal may read. */
  lookup(principal: Principal, path: string): Asset | undefined;
}

/** `/pagefind/grupos/<key>/<file>`: a file of a page's own bundle. */
const GROUP_FILE = /^\/grupos\/([^/]+)(\/.+)$/;

/** The terms files the gate serves merged over a person's bundles at `/pagefind/<name>` (one request instead of one per bundle). */
const MERGED_FILES = new Set([`/${TERMS_FILE}`, `/${VOCABULARY_FILE}`]);

/** Distinct merged files kept (one per access plan and file; beyond it the cache starts over). */
const MERGED_CACHE_LIMIT = 200;

/** `termos.json` / `vocabulario.json` of several bundles as one: page counts added, synonym entries and words joined. */
export function mergeTermsFiles(files: readonly TermsFile[]): TermsFile {
  const merged: TermsFile = {};
  for (const file of files) {
    if (typeof file.paginas === "number") merged.paginas = (merged.paginas ?? 0) + file.paginas;
    if (Array.isArray(file.sinonimos)) merged.sinonimos = [...(merged.sinonimos ?? []), ...file.sinonimos];
    if (typeof file.palavras === "string") merged.palavras = merged.palavras ? `${merged.palavras} ${file.palavras}` : file.palavras;
  }
  return merged;
}

/**
 * Loads every search bundle (dist/search/<key>/pagefind/…) into memory at start. Per principal (once
 * per principal object: a role or restriction change builds new principals, see sessions/cache.ts)
 * the gate picks the primary bundle served under `/pagefind/*` and the groups listed in
 * `/pagefind/grupos.json` and served under `/pagefind/grupos/<key>/*` (see search/bundles.ts).
 */
export function loadSearchBundles(dir: string): SearchFiles {
  const bundles = new Map<string, Map<string, Asset>>();
  // The bundles (one per page) share Pagefind's scripts byte for byte: each distinct file is held
  // (and read or compressed) once. Compressing 18 bundles one by one took ~4.5 s of every start.
  const compressed = new Map<string, ReturnType<typeof compressBody>>();
  const bodyOf = (file: string, raw: Buffer) => {
    const compressible = isCompressibleSearchFile(file);
    const key = `${compressible ? "z" : "-"}${etagOf(raw)}`;
    let body = compressed.get(key);
    if (!body) compressed.set(key, (body = (compressible && precompressed(file, raw)) || compressBody(raw, compressible)));
    return body;
  };
  if (fs.existsSync(dir)) {
    for (const key of fs.readdirSync(dir)) {
      const root = path.join(dir, key, "pagefind");
      if (!fs.existsSync(root)) continue;
      const files = new Map<string, Asset>();
      for (const file of listFiles(root)) {
        if (file.endsWith(".br") || file.endsWith(".gz")) continue;
        const rel = "/" + path.relative(root, file).split(path.sep).join("/");
        files.set(rel, { ...bodyOf(file, fs.readFileSync(file)), type: contentType(file), immutable: false });
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
  // Each bundle's terms files are the build's own JSON (scripts/build-search.ts); merged per plan, on first request.
  const merged = new Map<string, Asset | undefined>();
  const mergedFile = (plan: SearchPlan, name: string): Asset | undefined => {
    const keys = [plan.primary, ...plan.groups];
    const cacheKey = `${name}\0${keys.join("\0")}`;
    if (merged.has(cacheKey)) return merged.get(cacheKey);
    const parts = keys.map((key) => bundles.get(key)?.get(name));
    let asset: Asset | undefined;
    if (parts.every((part) => part !== undefined)) {
      const body = JSON.stringify(mergeTermsFiles(parts.map((part) => JSON.parse(part.raw.toString("utf8")) as TermsFile)));
      asset = { ...compressBody(Buffer.from(body)), type: contentType(name), immutable: false };
    }
    if (merged.size >= MERGED_CACHE_LIMIT) merged.clear();
    merged.set(cacheKey, asset);
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
      if (MERGED_FILES.has(filePath)) return plan.groups.length ? mergedFile(plan, filePath) : bundles.get(plan.primary)?.get(filePath);
      const group = GROUP_FILE.exec(filePath);
      if (!group) return bundles.get(plan.primary)?.get(filePath);
      const [, key, rest] = group;
      if (!plan.groups.includes(key!)) return undefined;
      return bundles.get(key!)?.get(rest!);
    },
  };
}
