import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/** What a copy of the project leaves out: builds, data, caches and git (node_modules is linked instead). */
const LEFT_OUT = new Set([
  "node_modules",
  "dist",
  ".git",
  "data",
  "test-results",
  "playwright-report",
  "artifacts",
  "bench-results",
  ".astro",
  ".node",
]);

/**
 * A node_modules of links to this checkout's packages (and .bin), with none of its caches: Astro
 * (`node_modules/.astro`, its content store) and Vite (`.vite`) keep theirs there, and a build of
 * another tree must neither read nor overwrite this checkout's.
 */
export function linkModules(from: string, to: string): void {
  fs.mkdirSync(to);
  for (const entry of fs.readdirSync(from)) {
    if (entry.startsWith(".") && entry !== ".bin") continue;
    fs.symlinkSync(path.join(from, entry), path.join(to, entry), "dir");
  }
}

/** A copy of the project in a temporary folder, with this one's packages but caches of its own (linkModules); returns its root. */
export function copyProject(prefix: string): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  for (const entry of fs.readdirSync(".")) if (!LEFT_OUT.has(entry)) fs.cpSync(entry, path.join(root, entry), { recursive: true });
  linkModules(path.resolve("node_modules"), path.join(root, "node_modules"));
  return root;
}

/** The environment of a command run by hand: the runner's NODE_ENV=test, VITEST* and PLAYWRIGHT* would change how Astro runs. */
export function cleanEnv(): NodeJS.ProcessEnv {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(
      ([key]) => key !== "NODE_ENV" && key !== "TEST" && !key.startsWith("VITEST") && !key.startsWith("PLAYWRIGHT"),
    ),
  );
  return { ...env, FORCE_COLOR: "0", NO_COLOR: "1" };
}
