/**
 * Builds the access-aware search index (run by `npm run build` after build-server): one
 * Pagefind bundle per access set under dist/search/<key>/, never under dist/client.
 */
import fs from "node:fs";
import path from "node:path";
import * as pagefind from "pagefind";
import { allBundles, bundleKey, gatedSearchablePaths } from "../src/lib/search-bundles.ts";

const pagesDir = path.resolve("dist/pages");
const outDir = path.resolve("dist/search");

function routeOf(file: string): string {
  const rel = path.relative(pagesDir, file).split(path.sep).join("/");
  return rel === "index.html" ? "/" : "/" + rel.replace(/\/index\.html$/, "");
}

function* walk(dir: string): Generator<string> {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(full);
    else if (entry.name.endsWith(".html")) yield full;
  }
}

const searchable = new Map<string, string>();
for (const file of walk(pagesDir)) {
  const html = fs.readFileSync(file, "utf8");
  if (html.includes("data-pagefind-body")) searchable.set(routeOf(file), html);
}
const gated = gatedSearchablePaths(new Set(searchable.keys()));
const open = [...searchable.keys()].filter((route) => !gated.includes(route));

fs.rmSync(outDir, { recursive: true, force: true });
const started = Date.now();
for (const subset of allBundles(gated)) {
  const { index, errors } = await pagefind.createIndex({ forceLanguage: "pt", rootSelector: "html" });
  if (!index) throw new Error(`Pagefind: ${errors.join("; ")}`);
  for (const route of [...open, ...subset]) {
    const result = await index.addHTMLFile({ url: route, content: searchable.get(route)! });
    if (result.errors.length) throw new Error(`Pagefind (${route}): ${result.errors.join("; ")}`);
  }
  const written = await index.writeFiles({ outputPath: path.join(outDir, bundleKey(subset), "pagefind") });
  if (written.errors.length) throw new Error(`Pagefind: ${written.errors.join("; ")}`);
}
await pagefind.close();
console.log(
  `build-search: ${searchable.size} páginas pesquisáveis, ${2 ** gated.length} pacotes (${gated.join(", ") || "sem páginas restritas"}) em ${Date.now() - started} ms`,
);
