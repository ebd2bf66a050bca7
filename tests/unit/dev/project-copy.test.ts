/**
 * Copies of the project (the MDX, reading-versions and attack suites build one each) run `astro build`
 * while other builds and vitest starts run beside them — `npm test` runs two lanes side by side. Astro
 * keeps its content store in `<root>/node_modules/.astro` and Vite its cache in `.vite`: a copy whose
 * node_modules is this checkout's (one symlink) shared both, and a build once rendered a page its
 * store no longer listed (UnknownContentCollectionError) after another build rewrote it.
 */
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { copyProject } from "../../../scripts/dev/project-copy";

let root = "";
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

describe("project copy", () => {
  it("has the checkout's packages but caches of its own (Astro's content store, Vite's)", () => {
    root = copyProject("b1-copy-test-");
    const modules = path.join(root, "node_modules");
    expect(fs.lstatSync(modules).isSymbolicLink()).toBe(false);
    expect(fs.realpathSync(path.join(modules, "astro"))).toBe(fs.realpathSync("node_modules/astro"));
    expect(fs.existsSync(path.join(modules, ".bin"))).toBe(true);
    for (const cache of [".astro", ".vite", ".cache"]) expect(fs.existsSync(path.join(modules, cache)), cache).toBe(false);
    expect(fs.existsSync(path.join(root, "content"))).toBe(true);
    expect(fs.existsSync(path.join(root, "dist"))).toBe(false);
  });
});
