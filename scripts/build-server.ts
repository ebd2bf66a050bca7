// After `astro build`: moves every prerendered page out of the public folder (only the gate
// serves HTML), precompresses public assets and bundles the gate into dist/gate/main.mjs.
import fs from "node:fs";
import path from "node:path";
import { build } from "esbuild";
import { listFiles } from "../src/lib/server/platform/files.ts";
import { compress, MIN_COMPRESSIBLE_BYTES } from "../src/lib/server/content/static-files.ts";

const dist = path.resolve("dist");
const client = path.join(dist, "client");
const pagesDir = path.join(dist, "pages");

// Re-running on an already processed dist (pages moved, only 404/500 left) keeps the moved pages.
const alreadyMoved = fs.existsSync(pagesDir) && listFiles(client).filter((f) => f.endsWith(".html")).length <= 2;
if (!alreadyMoved) fs.rmSync(pagesDir, { recursive: true, force: true });
let moved = 0;
for (const file of listFiles(client)) {
  if (!file.endsWith(".html")) continue;
  const rel = path.relative(client, file);
  const target = path.join(pagesDir, rel);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  // The adapter reads 404.html/500.html from the client folder for its own error responses;
  // they hold no content, so a copy stays there.
  if (rel === "404.html" || rel === "500.html") fs.copyFileSync(file, target);
  else fs.renameSync(file, target);
  moved++;
}
// Folders left empty by the move go too (deepest first), so no page's folder name stays public.
const folders = fs
  .readdirSync(client, { recursive: true, withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => path.join(entry.parentPath, entry.name))
  .sort((a, b) => b.length - a.length);
for (const dir of folders) if (fs.readdirSync(dir).length === 0) fs.rmdirSync(dir);

let compressed = 0;
for (const file of listFiles(client)) {
  if (!/\.(js|mjs|css|svg|json|txt|xml|wasm)$/.test(file)) continue;
  const raw = fs.readFileSync(file);
  if (raw.length < MIN_COMPRESSIBLE_BYTES) continue;
  const { br, gzip } = compress(raw, "build");
  fs.writeFileSync(file + ".br", br);
  fs.writeFileSync(file + ".gz", gzip);
  compressed++;
}

// Bundled CommonJS code may still call require().
const REQUIRE_BANNER = 'import { createRequire as __createRequire } from "node:module"; const require = __createRequire(import.meta.url);';

const shared = {
  outdir: path.join(dist, "gate"),
  outExtension: { ".js": ".mjs" },
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node22",
  sourcemap: true,
  logLevel: "warning",
} as const;

/** Every dependency stays outside the gate's bundle except drizzle-orm (see the worker below). */
const packageJson = JSON.parse(fs.readFileSync("package.json", "utf8")) as { dependencies: Record<string, string> };
const outside = Object.keys(packageJson.dependencies)
  .filter((name) => name !== "drizzle-orm")
  .flatMap((name) => [name, `${name}/*`]);

await build({ ...shared, entryPoints: { main: "src/server/main.ts" }, external: outside, banner: { js: REQUIRE_BANNER } });

// The audit, reading and audit-stream worker threads, loaded by path next to main.mjs, carries its packages inside (only the
// native and driver ones stay outside): loading drizzle-orm as its hundreds of separate ES modules
// costs a thread ~190 MB of memory, the bundled worker ~28 MB (measured; see docs/decisions.md).
await build({
  ...shared,
  entryPoints: {
    "audit-worker": "src/server/audit-worker.ts",
    "reading-worker": "src/server/reading-worker.ts",
    "audit-stream-worker": "src/server/audit-stream-worker.ts",
  },
  external: ["better-sqlite3", "pg", "pg-native"],
  banner: { js: REQUIRE_BANNER },
});

console.log(`build-server: ${moved} páginas movidas para dist/pages, ${compressed} arquivos pré-comprimidos, gate em dist/gate/main.mjs`);
