/**
 * `npm run user` (and any `node scripts/run-script.mjs scripts/<name>.ts …`): runs a TypeScript command
 * bundled by esbuild with drizzle-orm inside, as the gate's build and the tests do, instead of under tsx.
 * Under tsx the command spent ~1.6 s of CPU (5–7 s on a loaded 2-core machine) loading drizzle-orm's
 * hundreds of modules before its first line; bundled it starts in ~0.1 s of CPU. The bundle is kept in
 * node_modules/.cache/b1-scripts with the files it was made from and their modification times: it is
 * made again only when one of them changed (~0.7 s). Without esbuild (not installed), tsx runs it.
 * The cache folder must be this user's and writable by nobody else (scripts/private-dir.mjs), and a
 * bundle runs only from that folder with the SHA-256 recorded when it was made; otherwise the cache
 * is left alone (one line says why) and tsx runs the script.
 */
import { spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { privateDir } from "./private-dir.mjs";

const [script, ...args] = process.argv.slice(2);
if (!script || !/^scripts\/[\w/-]+\.ts$/.test(script) || !fs.existsSync(script)) {
  console.error(`Erro: script desconhecido: ${script ? JSON.stringify(script) : "(nenhum)"}`);
  process.exit(2);
}
const CACHE_DIR = path.resolve("node_modules", ".cache", "b1-scripts");
const name = script.slice("scripts/".length, -".ts".length).replaceAll("/", "-");
const metaFile = path.join(CACHE_DIR, `${name}.json`);
const sha256 = (text) => crypto.createHash("sha256").update(text).digest("hex");
const REQUIRE_BANNER = 'import { createRequire as __createRequire } from "node:module"; const require = __createRequire(import.meta.url);';

/** The cache folder, checked; null (tsx runs the script) when it is not this user's alone. */
function cacheDir() {
  try {
    return privateDir(CACHE_DIR);
  } catch (error) {
    console.error(`[run-script] ${error.message} Rodando sem o cache (tsx).`);
    return null;
  }
}

/** The cached bundle when every file it was made from is unchanged and it is the bundle recorded, else null. */
function cachedBundle() {
  try {
    const meta = JSON.parse(fs.readFileSync(metaFile, "utf8"));
    if (typeof meta?.bundle !== "string" || typeof meta.sha256 !== "string") return null;
    if (path.dirname(path.resolve(meta.bundle)) !== CACHE_DIR) return null;
    for (const [file, mtime] of Object.entries(meta.inputs ?? {})) if (fs.statSync(file).mtimeMs !== mtime) return null;
    if (sha256(fs.readFileSync(meta.bundle)) !== meta.sha256) return null;
    return meta.bundle;
  } catch {
    return null;
  }
}

async function freshBundle() {
  let esbuild;
  try {
    esbuild = await import("esbuild");
  } catch {
    return null;
  }
  const manifest = JSON.parse(fs.readFileSync("package.json", "utf8"));
  const external = [...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.devDependencies ?? {})]
    .filter((dependency) => dependency !== "drizzle-orm")
    .flatMap((dependency) => [dependency, `${dependency}/*`]);
  const result = esbuild.buildSync({
    entryPoints: [script],
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node22",
    write: false,
    metafile: true,
    external,
    banner: { js: REQUIRE_BANNER },
    logLevel: "silent",
  });
  const bundle = path.join(CACHE_DIR, `${name}-${process.pid}-${Date.now()}.mjs`);
  fs.writeFileSync(bundle, result.outputFiles[0].text, { mode: 0o600, flag: "wx" });
  const inputs = Object.fromEntries(Object.keys(result.metafile.inputs).map((file) => [file, fs.statSync(file).mtimeMs]));
  const partial = `${metaFile}.${process.pid}.tmp`;
  fs.writeFileSync(partial, JSON.stringify({ bundle, sha256: sha256(result.outputFiles[0].text), inputs }), { mode: 0o600 });
  fs.renameSync(partial, metaFile);
  // Older bundles of this script go after a while (a run started a moment ago may still be loading one).
  for (const file of fs.readdirSync(CACHE_DIR)) {
    const full = path.join(CACHE_DIR, file);
    if (file.startsWith(`${name}-`) && file.endsWith(".mjs") && full !== bundle && Date.now() - fs.statSync(full).mtimeMs > 600_000)
      fs.rmSync(full, { force: true });
  }
  return bundle;
}

const bundle = cacheDir() ? (cachedBundle() ?? (await freshBundle())) : null;
if (!bundle) {
  const result = spawnSync(process.execPath, ["--import", "tsx", script, ...args], { stdio: "inherit" });
  process.exit(result.status ?? 1);
}
process.argv = [process.argv[0], bundle, ...args];
await import(pathToFileURL(bundle).href);
