import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { buildSync } from "esbuild";
import { privateDir } from "../../scripts/private-dir.mjs";

/**
 * The command-line scripts (`scripts/*.ts`) as the tests start them: the same source, transpiled by
 * esbuild as tsx does, but bundled once per test file with drizzle-orm inside, as the gate's own build
 * does (scripts/build-server.ts). Under `node --import tsx` a script spent about 1.1 s of CPU loading
 * drizzle-orm's hundreds of modules before its first line; bundled, about 0.1 s (measured here), and the
 * audit, user and backup suites start such a script dozens of times.
 */
const CACHE_DIR = path.resolve("node_modules", ".cache", "b1-test-scripts");
const REQUIRE_BANNER = 'import { createRequire as __createRequire } from "node:module"; const require = __createRequire(import.meta.url);';
const built = new Map<string, string>();

function externalPackages(): string[] {
  const manifest = JSON.parse(fs.readFileSync("package.json", "utf8")) as Record<string, Record<string, string> | undefined>;
  return [...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.devDependencies ?? {})]
    .filter((name) => name !== "drizzle-orm")
    .flatMap((name) => [name, `${name}/*`]);
}

/**
 * The arguments for `process.execPath` that run `script` (a path such as "scripts/user.ts", from the
 * project folder, which stays the working directory) with `args`.
 */
export function scriptArgs(script: string, args: string[] = []): string[] {
  let file = built.get(script);
  if (!file) {
    const result = buildSync({
      entryPoints: [script],
      bundle: true,
      platform: "node",
      format: "esm",
      target: "node22",
      write: false,
      external: externalPackages(),
      banner: { js: REQUIRE_BANNER },
      logLevel: "silent",
    });
    const text = result.outputFiles[0]!.text;
    // Named by content: files running at the same time share one bundle, and an edited script gets a new one.
    const hash = crypto.createHash("sha256").update(text).digest("hex").slice(0, 16);
    file = path.join(CACHE_DIR, `${path.basename(script, ".ts")}-${hash}.mjs`);
    // This user's folder alone (0700, scripts/private-dir.mjs), and a file found there runs only with the content it is named by.
    privateDir(CACHE_DIR);
    if (!fs.existsSync(file) || crypto.createHash("sha256").update(fs.readFileSync(file)).digest("hex").slice(0, 16) !== hash) {
      const partial = `${file}.${process.pid}.tmp`;
      fs.writeFileSync(partial, text, { mode: 0o600 });
      fs.renameSync(partial, file);
    }
    built.set(script, file);
  }
  return [file, ...args];
}
