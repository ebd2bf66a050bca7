/**
 * deploy/previous-release, the file naming the release the compatibility test builds: one commit,
 * strictly 40 lowercase hex digits (the value goes to `git archive`), and a commit this clone has in
 * HEAD's history — a missing one fails loudly in Portuguese and English, never a skip.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { privateDir } from "../../../scripts/private-dir.mjs";
import {
  buildRecordFile,
  installedPackagesHash,
  PREVIOUS_RELEASE_FILE,
  previousReleaseCommit,
  previousReleaseDir,
  recordBuild,
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
    fs.writeFileSync(buildRecordFile(build), JSON.stringify(recordBuild(build, HASH, "shared", lockHash)));
    return build;
  }

  /** A build linking an existing package folder, with a client asset besides the gate. */
  function goodBuild(): string {
    const modules = fs.mkdtempSync(path.join(dir, "modules-"));
    fs.mkdirSync(path.join(modules, "astro"));
    const build = fs.mkdtempSync(path.join(dir, "build-"));
    fs.mkdirSync(path.join(build, "dist", "client"), { recursive: true });
    fs.writeFileSync(path.join(build, "dist", "client", "app.js"), "console.log(1)");
    fs.mkdirSync(path.join(build, "dist", "gate"), { recursive: true });
    fs.writeFileSync(path.join(build, "dist", "gate", "main.mjs"), "export {}");
    fs.mkdirSync(path.join(build, "node_modules"));
    fs.symlinkSync(path.join(modules, "astro"), path.join(build, "node_modules", "astro"), "dir");
    fs.writeFileSync(buildRecordFile(build), JSON.stringify(recordBuild(build, HASH, "shared", "abc")));
    return build;
  }

  it("is refused, never started, when dist/gate/main.mjs changed after the build", () => {
    // Failed before (issue 62 item 4): any folder with the marker was reused as found.
    const build = goodBuild();
    expect(reusableBuild(build, "abc")).toBe("shared");
    fs.writeFileSync(path.join(build, "dist", "gate", "main.mjs"), "process.exit(0) // plantado");
    expect(() => reusableBuild(build, "abc")).toThrow(/Versão anterior recusada: dist\/gate\/main\.mjs .* mudou desde o build/);
  });

  it.each([
    ["another built file changed", (build: string) => fs.appendFileSync(path.join(build, "dist", "client", "app.js"), ";")],
    ["a file added to dist/", (build: string) => fs.writeFileSync(path.join(build, "dist", "gate", "extra.mjs"), "")],
    [
      "a package link pointing elsewhere",
      (build: string) => {
        const elsewhere = fs.mkdtempSync(path.join(dir, "elsewhere-"));
        fs.mkdirSync(path.join(elsewhere, "astro"));
        fs.rmSync(path.join(build, "node_modules", "astro"));
        fs.symlinkSync(path.join(elsewhere, "astro"), path.join(build, "node_modules", "astro"), "dir");
      },
    ],
  ])("is refused when %s", (_label, tamper) => {
    const build = goodBuild();
    tamper(build);
    expect(() => reusableBuild(build, "abc")).toThrow(/Versão anterior recusada: a árvore construída/);
  });

  it("a folder with the old marker but no record is built again, not started", () => {
    const build = goodBuild();
    fs.rmSync(buildRecordFile(build));
    fs.writeFileSync(path.join(build, ".b1-previous-release"), JSON.stringify({ commit: HASH, modules: "installed", lockHash: "abc" }));
    expect(reusableBuild(build, "abc")).toBeNull();
  });

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

describe("the cache folder (scripts/private-dir.mjs)", () => {
  const uid = process.getuid!();

  it("is created owner-only (0700) and accepted again", () => {
    const cache = path.join(dir, "own", "cache");
    expect(privateDir(cache)).toBe(cache);
    expect(fs.statSync(cache).mode & 0o777).toBe(0o700);
    expect(privateDir(cache)).toBe(cache);
  });

  it("refuses a planted folder writable by others (mode 0777), with the marker and a gate inside", () => {
    // Failed before: $TMPDIR/b1-previous-release/<commit>-<checkout> was reused whoever made it.
    const planted = path.join(dir, "planted-0777");
    fs.mkdirSync(path.join(planted, "dist", "gate"), { recursive: true });
    fs.writeFileSync(path.join(planted, "dist", "gate", "main.mjs"), "// plantado");
    fs.chmodSync(planted, 0o777);
    expect(() => privateDir(planted)).toThrow(/Pasta de cache recusada: .* pode ser escrita por outros usuários \(modo 777\)/);
    fs.chmodSync(planted, 0o775);
    expect(() => privateDir(planted)).toThrow(/pode ser escrita por outros usuários \(modo 775\)/);
  });

  it("refuses a folder owned by another user", () => {
    const planted = fs.mkdtempSync(path.join(dir, "planted-uid-"));
    expect(() => privateDir(planted, { uid: uid + 4242 })).toThrow(/pertence a outro usuário \(uid \d+, esperado \d+\)/);
    if (uid === 0) {
      // As root (CI containers): really another owner.
      fs.chownSync(planted, 4242, 4242);
      expect(() => privateDir(planted)).toThrow(/pertence a outro usuário \(uid 4242, esperado 0\)/);
    }
  });

  it("refuses a symbolic link to a folder, even the user's own", () => {
    const target = fs.mkdtempSync(path.join(dir, "target-"));
    const link = path.join(dir, "link-to-target");
    fs.symlinkSync(target, link, "dir");
    expect(() => privateDir(link)).toThrow(/é um link simbólico/);
  });

  it("refuses a folder inside one anyone can change (world-writable, no sticky bit)", () => {
    const open = fs.mkdtempSync(path.join(dir, "open-"));
    fs.chmodSync(open, 0o777);
    expect(() => privateDir(path.join(open, "cache"))).toThrow(/qualquer usuário pode alterar/);
    fs.chmodSync(open, 0o1777);
    expect(privateDir(path.join(open, "cache2"))).toBe(path.join(open, "cache2"));
  });

  it("tightens its own folder that others could only read", () => {
    const mine = fs.mkdtempSync(path.join(dir, "mine-"));
    fs.chmodSync(mine, 0o755);
    privateDir(mine);
    expect(fs.statSync(mine).mode & 0o777).toBe(0o700);
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

describe("the user's cache folder when the home folder cannot be used", () => {
  it("falls back to b1-method-hub-<uid> in the temporary folder, checked the same way", async () => {
    const { userCacheDir } = await import("../../../scripts/private-dir.mjs");
    // A file where the cache's parent should be stands for an unusable home (root can write anywhere).
    const file = path.join(dir, "not-a-folder");
    fs.writeFileSync(file, "");
    const previous = process.env.XDG_CACHE_HOME;
    process.env.XDG_CACHE_HOME = path.join(file, "cache");
    try {
      const fallback = path.join(os.tmpdir(), `b1-method-hub-${process.getuid!()}`);
      expect(userCacheDir("x")).toBe(path.join(fallback, "x"));
      expect(fs.statSync(fallback).mode & 0o777).toBe(0o700);
      expect(fs.statSync(fallback).uid).toBe(process.getuid!());
    } finally {
      fs.rmSync(path.join(os.tmpdir(), `b1-method-hub-${process.getuid!()}`, "x"), { recursive: true, force: true });
      if (previous === undefined) delete process.env.XDG_CACHE_HOME;
      else process.env.XDG_CACHE_HOME = previous;
    }
  });
});
