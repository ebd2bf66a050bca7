// After `astro build`: moves every prerendered page out of the public folder (only the gate
// serves HTML), precompresses public assets and bundles the gate into dist/gate/main.mjs.
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { build } from "esbuild";

const dist = path.resolve("dist");
const client = path.join(dist, "client");
const pagesDir = path.join(dist, "pages");

function* walk(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(full);
    else yield full;
  }
}

// Re-running on an already processed dist (pages moved, only 404/500 left) keeps the moved pages.
const alreadyMoved = fs.existsSync(pagesDir) && [...walk(client)].filter((f) => f.endsWith(".html")).length <= 2;
if (!alreadyMoved) fs.rmSync(pagesDir, { recursive: true, force: true });
let moved = 0;
for (const file of [...walk(client)]) {
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
for (const dir of [...walk(client)].map((f) => path.dirname(f))) {
  if (fs.existsSync(dir) && fs.readdirSync(dir).length === 0) fs.rmSync(dir, { recursive: true });
}
for (const entry of fs.readdirSync(client, { withFileTypes: true })) {
  const full = path.join(client, entry.name);
  if (entry.isDirectory() && [...walk(full)].length === 0) fs.rmSync(full, { recursive: true });
}

let compressed = 0;
for (const file of walk(client)) {
  if (!/\.(js|mjs|css|svg|json|txt|xml|wasm)$/.test(file)) continue;
  const raw = fs.readFileSync(file);
  if (raw.length < 256) continue;
  fs.writeFileSync(file + ".br", zlib.brotliCompressSync(raw, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }));
  fs.writeFileSync(file + ".gz", zlib.gzipSync(raw, { level: 9 }));
  compressed++;
}

await build({
  // The audit worker thread is its own entry, loaded by path next to main.mjs.
  entryPoints: { main: "src/server/main.ts", "audit-worker": "src/server/audit-worker.ts" },
  outdir: path.join(dist, "gate"),
  outExtension: { ".js": ".mjs" },
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node22",
  packages: "external",
  sourcemap: true,
  logLevel: "warning",
});

console.log(`build-server: ${moved} páginas movidas para dist/pages, ${compressed} arquivos pré-comprimidos, gate em dist/gate/main.mjs`);
