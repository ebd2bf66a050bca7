/**
 * deploy/previous-release, the file naming the release the compatibility test builds: one commit,
 * strictly 40 lowercase hex digits (the value goes to `git archive`), and a commit this clone has in
 * HEAD's history — a missing one fails loudly in Portuguese and English, never a skip.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  installedPackagesHash,
  PREVIOUS_RELEASE_FILE,
  previousReleaseCommit,
  previousReleaseDir,
  requireCommit,
  reusableBuild,
} from "../../support/previous-release";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "b1-previous-marker-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function parse(text: string): string {
  const file = path.join(dir, `marker-${Math.random().toString(36).slice(2)}`);
  fs.writeFileSync(file, text);
  return previousReleaseCommit(file);
}

const HASH = "7e9d5ce8b59ab9048c58531d8540ab6b6764df15";

describe("deploy/previous-release", () => {
  it("names one commit that this clone has, before HEAD", () => {
    const commit = previousReleaseCommit(PREVIOUS_RELEASE_FILE);
    expect(commit).toMatch(/^[0-9a-f]{40}$/);
    expect(() => requireCommit(commit)).not.toThrow();
  });

  it("reads the commit past comments, blank lines and CRLF endings", () => {
    expect(parse(`# comentário\r\n\r\n${HASH}\r\n`)).toBe(HASH);
  });

  it.each([
    ["empty", ""],
    ["two commits", `${HASH}\n${HASH}\n`],
    ["a short hash", "7e9d5ce\n"],
    ["an option for git", `--output=/tmp/x ${HASH}\n`],
    ["a ref name", "HEAD~1\n"],
    ["uppercase hex", `${HASH.toUpperCase()}\n`],
    ["a bidi control inside", `${HASH.slice(0, 20)}\u202e${HASH.slice(20)}\n`],
    ["a zero-width space after", `${HASH}\u200b\n`],
    ["__proto__", "__proto__\n"],
    ["a 64 KiB line", `${"a".repeat(65_536)}\n`],
  ])("refuses %s with a clear message", (_label, text) => {
    expect(() => parse(text)).toThrow(/esperado um único commit \(40 dígitos hexadecimais\)/);
  });

  it("fails loudly in Portuguese and English when the commit is not in this clone", () => {
    expect(() => requireCommit("0123456789abcdef0123456789abcdef01234567")).toThrow(
      /não está no histórico deste clone[\s\S]*is missing from this clone/,
    );
  });
});

describe("the previous release's cached build", () => {
  /** A finished cache folder as previousReleaseBuild leaves it, its node_modules linking to `modules`. */
  function cachedBuild(modules: string, lockHash: string): string {
    const build = fs.mkdtempSync(path.join(dir, "build-"));
    fs.mkdirSync(path.join(build, "dist", "gate"), { recursive: true });
    fs.writeFileSync(path.join(build, "dist", "gate", "main.mjs"), "");
    fs.mkdirSync(path.join(build, "node_modules"));
    fs.symlinkSync(path.join(modules, "astro"), path.join(build, "node_modules", "astro"), "dir");
    fs.writeFileSync(path.join(build, ".b1-previous-release"), JSON.stringify({ commit: HASH, modules: "shared", lockHash }));
    return build;
  }

  it("is reused while the checkout whose packages it links is there and its lock file unchanged", () => {
    const modules = fs.mkdtempSync(path.join(dir, "modules-"));
    fs.mkdirSync(path.join(modules, "astro"));
    fs.writeFileSync(path.join(modules, "astro", "package.json"), "{}");
    const build = cachedBuild(modules, "abc");
    expect(reusableBuild(build, "abc")).toBe("shared");
    expect(reusableBuild(build, "another lock")).toBeNull();
  });

  it("is built again when the checkout it linked was deleted (its package links dangle)", () => {
    // Seen in a clean clone: the cache under $TMPDIR linked a removed worktree's node_modules and the
    // old gate died with ERR_MODULE_NOT_FOUND instead of being rebuilt with this checkout's packages.
    const build = cachedBuild(path.join(dir, "removed-checkout", "node_modules"), "abc");
    expect(reusableBuild(build, "abc")).toBeNull();
  });

  it("is not shared between two checkouts of the same commit", () => {
    const parent = path.join(dir, "cache");
    expect(previousReleaseDir(parent, HASH, "/srv/a")).not.toBe(previousReleaseDir(parent, HASH, "/srv/b"));
    expect(previousReleaseDir(parent, HASH, "/srv/a")).toBe(previousReleaseDir(parent, HASH, "/srv/a"));
  });
});

describe("whether the previous release can use this checkout's packages", () => {
  const lock = (rootDev: Record<string, string>, packages: Record<string, object>) =>
    JSON.stringify({ name: "b1-method-hub", lockfileVersion: 3, packages: { "": { devDependencies: rootDev }, ...packages } }, null, 2);
  const standard = { version: "1.1.1", integrity: "sha512-a", resolved: "https://registry/standardwebhooks-1.1.1.tgz" };

  it("yes, when a package only moved between dependencies and devDependencies (node_modules is the same)", () => {
    // Failed before: the lock files' bytes were compared, and this move made every CI run `npm ci` the previous release.
    const before = JSON.stringify({
      lockfileVersion: 3,
      packages: { "": { dependencies: { standardwebhooks: "^1.1.1" } }, "node_modules/standardwebhooks": standard },
    });
    const after = lock({ standardwebhooks: "^1.1.1" }, { "node_modules/standardwebhooks": { ...standard, dev: true } });
    expect(installedPackagesHash(after)).toBe(installedPackagesHash(before));
  });

  it.each([
    ["another version", { "node_modules/standardwebhooks": { ...standard, version: "1.1.2" } }],
    ["another integrity", { "node_modules/standardwebhooks": { ...standard, integrity: "sha512-b" } }],
    ["one more package", { "node_modules/standardwebhooks": standard, "node_modules/left-pad": { version: "1.3.0" } }],
    ["a package in another place", { "node_modules/x/node_modules/standardwebhooks": standard }],
  ])("no, with %s", (_label, packages) => {
    const base = lock({}, { "node_modules/standardwebhooks": standard });
    expect(installedPackagesHash(lock({}, packages))).not.toBe(installedPackagesHash(base));
  });

  it("a lock file without `packages` (lockfileVersion 1) is the same install only byte for byte", () => {
    const v1 = (version: string) => JSON.stringify({ lockfileVersion: 1, dependencies: { a: { version } } });
    expect(installedPackagesHash(v1("1.0.0"))).not.toBe(installedPackagesHash(v1("2.0.0")));
  });
});
