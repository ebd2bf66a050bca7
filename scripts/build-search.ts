/**
 * Builds the access-aware search index (run by `npm run build` after build-server): a base
 * Pagefind bundle with the pages every signed-in user may open by the route table, one bundle per
 * searchable page, an empty one, and dist/search/indice.json naming them — under
 * dist/search/<key>/pagefind/, never under dist/client. Which of them a person reads is decided
 * per request (src/lib/search/bundles.ts), so the admin panel's changes need no rebuild.
 */
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import * as pagefind from "pagefind";
import { parse } from "yaml";
import { searchSynonymSchema } from "../src/schemas/search-synonyms.ts";
import { TERMS_FILE, VOCABULARY_FILE, termsFor, type SynonymSource } from "../src/lib/search/terms.ts";
import { YAML_FILES } from "../src/collections/yaml-files.ts";
import { searchableHtml, separateInlineWords } from "../src/lib/search/indexed-html.ts";
import { listFiles } from "../src/lib/server/platform/files.ts";
import { isCompressibleSearchFile } from "../src/lib/server/content/search-files.ts";
import { compress, etagOf, MIN_COMPRESSIBLE_BYTES } from "../src/lib/server/content/static-files.ts";
import {
  BASE_BUNDLE,
  EMPTY_BUNDLE,
  SEARCH_MANIFEST_FILE,
  gatedSearchablePaths,
  groupKey,
  type SearchManifest,
} from "../src/lib/search/bundles.ts";

const pagesDir = path.resolve("dist/pages");
const outDir = path.resolve("dist/search");

/**
 * Controls are not prose: their labels ("Baixar", "Em breve", a filter's options, tab names) stay
 * out of the index and so out of every excerpt.
 */
const CONTROLS = [
  "button",
  "select",
  "input",
  "textarea",
  "label",
  "nav",
  "[role=tablist]",
  "[role=toolbar]",
  "[role=menu]",
  "[data-pagefind-ignore]",
];

function routeOf(file: string): string {
  const rel = path.relative(pagesDir, file).split(path.sep).join("/");
  return rel === "index.html" ? "/" : "/" + rel.replace(/\/index\.html$/, "");
}

const searchable = new Map<string, string>();
for (const file of listFiles(pagesDir).filter((name) => name.endsWith(".html"))) {
  const html = fs.readFileSync(file, "utf8");
  if (html.includes("data-pagefind-body")) searchable.set(routeOf(file), separateInlineWords(searchableHtml(html)));
}
const gated = gatedSearchablePaths(new Set(searchable.keys()));
const open = [...searchable.keys()].filter((route) => !gated.includes(route));

async function writeBundle(key: string, routes: readonly string[]): Promise<void> {
  const { index, errors } = await pagefind.createIndex({ forceLanguage: "pt", rootSelector: "html", excludeSelectors: CONTROLS });
  if (!index) throw new Error(`Pagefind: ${errors.join("; ")}`);
  for (const route of routes) {
    const result = await index.addHTMLFile({ url: route, content: searchable.get(route)! });
    if (result.errors.length) throw new Error(`Pagefind (${route}): ${result.errors.join("; ")}`);
  }
  const written = await index.writeFiles({ outputPath: path.join(outDir, key, "pagefind") });
  if (written.errors.length) throw new Error(`Pagefind: ${written.errors.join("; ")}`);
}

/** The text Pagefind indexed for the one page of a page's own bundle: its title and content, from its fragment. */
function indexedText(key: string): string {
  const dir = path.join(outDir, key, "pagefind", "fragment");
  return fs
    .readdirSync(dir)
    .map((name) => {
      // A fragment is gzip of "pagefind_dcd" + JSON.
      const raw = zlib.gunzipSync(fs.readFileSync(path.join(dir, name)));
      const fragment = JSON.parse(raw.subarray(raw.indexOf("{")).toString("utf8")) as { content: string; meta?: { title?: string } };
      return `${fragment.meta?.title ?? ""} ${fragment.content}`;
    })
    .join(" ");
}

/** content/busca/sinonimos.yaml, validated (npm run content:check names the line of a problem). */
function synonymSources(): SynonymSource[] {
  const entries = parse(fs.readFileSync(YAML_FILES.searchSynonyms.file, "utf8")) as unknown[];
  return entries.map((entry, position) => searchSynonymSchema.parse({ ...(entry as object), position }));
}

/** Each bundle's words and the synonyms its pages answer, beside its Pagefind files (src/lib/search/terms.ts). */
function writeTerms(key: string, texts: readonly string[], allTexts: readonly string[], synonyms: readonly SynonymSource[]) {
  const { terms, vocabulary } = termsFor(synonyms, texts, allTexts);
  fs.writeFileSync(path.join(outDir, key, "pagefind", TERMS_FILE), JSON.stringify(terms));
  fs.writeFileSync(path.join(outDir, key, "pagefind", VOCABULARY_FILE), JSON.stringify(vocabulary));
}

fs.rmSync(outDir, { recursive: true, force: true });
const started = Date.now();
await writeBundle(BASE_BUNDLE, open);
await writeBundle(EMPTY_BUNDLE, []);
const every = [...searchable.keys()].sort();
for (const route of every) await writeBundle(groupKey(route), [route]);
const manifest: SearchManifest = { base: open.sort(), pages: every };
fs.writeFileSync(path.join(outDir, SEARCH_MANIFEST_FILE), JSON.stringify(manifest));
await pagefind.close();

const texts = new Map(every.map((route) => [route, indexedText(groupKey(route))]));
const synonyms = synonymSources();
const allTexts = [...texts.values()];
for (const route of every) writeTerms(groupKey(route), [texts.get(route)!], allTexts, synonyms);
writeTerms(
  BASE_BUNDLE,
  open.map((route) => texts.get(route)!),
  allTexts,
  synonyms,
);
writeTerms(EMPTY_BUNDLE, [], allTexts, synonyms);

// Pagefind's text files compressed here, each distinct one once (the bundles share its scripts), for the
// gate to read at start (src/lib/server/content/search-files.ts) instead of compressing them.
const byContent = new Map<string, ReturnType<typeof compress>>();
let precompressed = 0;
for (const file of listFiles(outDir)) {
  if (!file.includes(`${path.sep}pagefind${path.sep}`) || !isCompressibleSearchFile(file)) continue;
  const raw = fs.readFileSync(file);
  if (raw.length < MIN_COMPRESSIBLE_BYTES) continue;
  const key = etagOf(raw);
  let both = byContent.get(key);
  if (!both) byContent.set(key, (both = compress(raw, "build")));
  fs.writeFileSync(`${file}.br`, both.br);
  fs.writeFileSync(`${file}.gz`, both.gzip);
  precompressed++;
}
console.log(
  `build-search: ${searchable.size} páginas pesquisáveis, ${every.length + 2} pacotes (base, vazio e um por página; ${gated.length} restritas) em ${Date.now() - started} ms; ${precompressed} arquivos pré-comprimidos (${byContent.size} distintos)`,
);
