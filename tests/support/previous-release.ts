/**
 * The previous release's build (deploy/previous-release names its commit), for the test that runs
 * that gate against the current schema: the commit's tree is exported with `git archive` into a
 * folder of the current user's cache (~/.cache/b1-method-hub/previous-release, mode 0700, refused
 * when owned by someone else or writable by others: scripts/private-dir.mjs), given links to this
 * checkout's packages when its package-lock.json installs the same packages (else `npm ci` there,
 * minutes, said in the output), built once and reused by every later run (the PostgreSQL passes of
 * the same `npm test`) until the commit changes. What was built is recorded in it (SHA-256 of
 * dist/gate/main.mjs and of the built tree) and checked before every reuse: a changed file refuses.
 */
import { spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { linkModules } from "../../scripts/dev/project-copy";
import { userCacheDir } from "../../scripts/private-dir.mjs";

export const PREVIOUS_RELEASE_FILE = "deploy/previous-release";

/** The one commit named by deploy/previous-release (40 hex digits; `#` lines are comments). */
export function previousReleaseCommit(file = PREVIOUS_RELEASE_FILE): string {
  const lines = fs
    .readFileSync(file, "utf8")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#"));
  if (lines.length !== 1 || !/^[0-9a-f]{40}$/.test(lines[0]!)) {
    throw new Error(`${file}: esperado um único commit (40 dígitos hexadecimais), encontrado: ${JSON.stringify(lines).slice(0, 200)}`);
  }
  return lines[0]!;
}

function git(args: string[]): { status: number; stdout: string; stderr: string } {
  const result = spawnSync("git", args, { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  return { status: result.status ?? 1, stdout: result.stdout ?? "", stderr: result.stderr ?? String(result.error ?? "") };
}

/**
 * Fails loudly (never a skip) when the clone lacks the commit (a shallow clone, or no git checkout
 * at all) or when it is not in this checkout's history (a release of another branch).
 */
export function requireCommit(commit: string): void {
  if (git(["cat-file", "-e", `${commit}^{commit}`]).status === 0) {
    if (git(["merge-base", "--is-ancestor", commit, "HEAD"]).status === 0) return;
    throw new Error(
      `${PREVIOUS_RELEASE_FILE}: ${commit} não é um commit anterior a este (HEAD) / is not an ancestor of HEAD: aponte para a versão em produção.`,
    );
  }
  const shallow = git(["rev-parse", "--is-shallow-repository"]).stdout.trim() === "true";
  throw new Error(
    [
      `A versão anterior (${commit}, em ${PREVIOUS_RELEASE_FILE}) não está no histórico deste clone` +
        (shallow ? " (clone raso: rode `git fetch --unshallow`)" : " (clone o repositório sem --depth)") +
        ": o teste de compatibilidade precisa dela para construir o gate anterior.",
      `The previous release's commit (${commit}, ${PREVIOUS_RELEASE_FILE}) is missing from this clone` +
        (shallow ? " (shallow clone: run `git fetch --unshallow`)" : " (clone without --depth)") +
        "; the compatibility test builds that gate.",
    ].join("\n"),
  );
}

function run(command: string, args: string[], cwd: string, timeoutMs: number): void {
  // The Node running the tests (>= 22.12) first on PATH, for npm and the build's own scripts.
  const env = {
    ...process.env,
    PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH ?? ""}`,
    ASTRO_TELEMETRY_DISABLED: "1",
  };
  const result = spawnSync(command, args, { cwd, env, encoding: "utf8", timeout: timeoutMs, maxBuffer: 256 * 1024 * 1024 });
  if (result.status !== 0) {
    const output = `${result.stdout ?? ""}${result.stderr ?? ""}${result.error ? String(result.error) : ""}`;
    throw new Error(`${command} ${args.join(" ")} (em ${cwd}) falhou (${result.status ?? result.signal}):\n${output.slice(-6000)}`);
  }
}

/**
 * The cache folder of `commit` built for the checkout at `repoRoot`: one per checkout, since a build
 * whose node_modules links a checkout's packages is that checkout's alone.
 */
export function previousReleaseDir(parent: string, commit: string, repoRoot: string): string {
  const checkout = crypto.createHash("sha256").update(path.resolve(repoRoot)).digest("hex").slice(0, 12);
  return path.join(parent, `${commit}-${checkout}`);
}

/** What previousReleaseBuild records beside a finished build, in the 0700 cache folder. */
export interface BuildRecord {
  commit: string;
  modules: PreviousBuild["modules"];
  lockHash: string;
  /** SHA-256 of dist/gate/main.mjs, the file the test starts. */
  mainSha256: string;
  /** SHA-256 of the built tree: every file under dist/ with its own SHA-256, and node_modules' entries. */
  treeSha256: string;
}

/**
 * The record of the build in `dir`: a file in the build's own folder (made by mkdtemp, 0700, inside
 * the 0700 cache folder), outside what the record hashes (dist/ and node_modules), and renamed into
 * place with the build, so a run that finds the folder always finds its record.
 */
export const buildRecordFile = (dir: string) => path.join(dir, ".b1-build-record.json");

const sha256 = (data: string | Buffer) => crypto.createHash("sha256").update(data).digest("hex");

/**
 * The built tree as one hash: each file under dist/ (path and SHA-256; a link: its target) and each
 * entry of node_modules (name and, for this checkout's packages, the link's target), sorted.
 */
export function builtTreeHash(dir: string): string {
  const lines: string[] = [];
  const walk = (relative: string) => {
    for (const entry of fs.readdirSync(path.join(dir, relative), { withFileTypes: true })) {
      const name = path.join(relative, entry.name);
      if (entry.isDirectory()) walk(name);
      else if (entry.isSymbolicLink()) lines.push(`link ${name} ${fs.readlinkSync(path.join(dir, name))}`);
      else lines.push(`file ${name} ${sha256(fs.readFileSync(path.join(dir, name)))}`);
    }
  };
  walk("dist");
  const modules = path.join(dir, "node_modules");
  for (const entry of fs.readdirSync(modules, { withFileTypes: true })) {
    lines.push(
      `module ${entry.name} ${entry.isSymbolicLink() ? fs.readlinkSync(path.join(modules, entry.name)) : entry.isDirectory() ? "dir" : "file"}`,
    );
  }
  return sha256(lines.sort().join("\n"));
}

/** The record of the build now in `dir`. */
export function recordBuild(dir: string, commit: string, modules: PreviousBuild["modules"], lockHash: string): BuildRecord {
  return {
    commit,
    modules,
    lockHash,
    mainSha256: sha256(fs.readFileSync(path.join(dir, "dist", "gate", "main.mjs"))),
    treeSha256: builtTreeHash(dir),
  };
}

/**
 * Throws (Portuguese) when the build in `dir` is not the one recorded: dist/gate/main.mjs or any
 * other built file changed, or a package link points elsewhere, since it was built.
 */
export function verifyBuild(dir: string, record: BuildRecord): void {
  const refuse = (what: string) => {
    throw new Error(
      `Versão anterior recusada: ${what} em ${dir} mudou desde o build (SHA-256 diferente do registrado em ${buildRecordFile(dir)}). Nada foi iniciado; apague a pasta e rode de novo.`,
    );
  };
  if (sha256(fs.readFileSync(path.join(dir, "dist", "gate", "main.mjs"))) !== record.mainSha256) refuse("dist/gate/main.mjs");
  if (builtTreeHash(dir) !== record.treeSha256) refuse("a árvore construída (dist/ ou node_modules)");
}

/**
 * How a finished cache folder's node_modules came, when it can be reused as is; null when it must be
 * built again: no record or no build (part of it was removed), packages shared with a lock file
 * that changed since, or links to packages no longer there (a removed checkout). A build whose files
 * differ from its record is refused (verifyBuild throws): it is never started.
 */
export function reusableBuild(dir: string, lockHash: string): PreviousBuild["modules"] | null {
  const file = buildRecordFile(dir);
  if (!fs.existsSync(file) || !fs.existsSync(path.join(dir, "dist", "gate", "main.mjs"))) return null;
  const recorded = JSON.parse(fs.readFileSync(file, "utf8")) as BuildRecord;
  if (recorded.modules === "shared" && recorded.lockHash !== lockHash) return null;
  // existsSync follows the link: false when what it points at is gone.
  if (recorded.modules === "shared" && !fs.existsSync(path.join(dir, "node_modules", "astro"))) return null;
  verifyBuild(dir, recorded);
  return recorded.modules;
}

/**
 * What a package-lock.json installs: every package's place, version and
 * integrity, as one hash. The root's own entry is left out, and so are the dev/optional/peer marks:
 * `npm install` puts dev dependencies in node_modules too, so a package moved between
 * dependencies and devDependencies (the lock file changes, node_modules does not) still shares
 * this checkout's packages instead of an `npm ci` of minutes in every CI run.
 */
export function installedPackagesHash(lockText: string): string {
  const lock = JSON.parse(lockText) as {
    packages?: Record<string, { version?: string; resolved?: string; integrity?: string; link?: boolean }>;
  };
  // lockfileVersion 1 has no `packages`: only the same bytes are the same install there.
  if (!lock.packages) return crypto.createHash("sha256").update(lockText).digest("hex");
  const entries = Object.entries(lock.packages)
    .filter(([place]) => place !== "")
    .map(([place, entry]) =>
      JSON.stringify([place, entry.version ?? null, entry.integrity ?? null, entry.resolved ?? null, entry.link ?? false]),
    )
    .sort();
  return crypto.createHash("sha256").update(entries.join("\n")).digest("hex");
}

export interface PreviousBuild {
  commit: string;
  /** The exported tree, built: start its gate with `cwd` set to it. */
  dir: string;
  /** True when this call built it (false: reused from an earlier run). */
  built: boolean;
  /** How its node_modules came: this checkout's (same lock file) or installed there. */
  modules: "shared" | "installed";
}

/**
 * The previous release, built. `prepare(dir)` runs on the exported tree before its build (the test
 * adds a required-reading declaration there). The folder is filled under another name and renamed
 * when complete, so a run cut short never leaves a half-built folder that looks finished.
 */
export function previousReleaseBuild(prepare: (dir: string) => void, repoRoot = process.cwd()): PreviousBuild {
  const commit = previousReleaseCommit(path.join(repoRoot, PREVIOUS_RELEASE_FILE));
  requireCommit(commit);
  const parent = userCacheDir("previous-release");
  const dir = previousReleaseDir(parent, commit, repoRoot);
  const lockHash = installedPackagesHash(fs.readFileSync(path.join(repoRoot, "package-lock.json"), "utf8"));
  const reused = reusableBuild(dir, lockHash);
  if (reused) return { commit, dir, built: false, modules: reused };
  fs.rmSync(dir, { recursive: true, force: true });
  const partial = fs.mkdtempSync(`${dir}.parcial-`);
  try {
    const archive = `${partial}.tar`;
    try {
      const exported = git(["archive", "--format=tar", `--output=${archive}`, commit]);
      if (exported.status !== 0) throw new Error(`git archive ${commit} falhou: ${exported.stderr}`);
      run("tar", ["-xf", archive, "-C", partial], partial, 60_000);
    } finally {
      fs.rmSync(archive, { force: true });
    }
    const sameLock = installedPackagesHash(fs.readFileSync(path.join(partial, "package-lock.json"), "utf8")) === lockHash;
    if (sameLock) {
      linkModules(path.join(repoRoot, "node_modules"), path.join(partial, "node_modules"));
    } else {
      console.log(`[versão anterior] package-lock.json instala pacotes diferentes dos atuais: npm ci em ${partial} (alguns minutos)`);
      run("npm", ["ci", "--no-audit", "--no-fund", "--loglevel=error"], partial, 900_000);
    }
    prepare(partial);
    run("npm", ["run", "build"], partial, 600_000);
    const modules = sameLock ? "shared" : "installed";
    const record = recordBuild(partial, commit, modules, lockHash);
    fs.writeFileSync(buildRecordFile(partial), JSON.stringify(record), { mode: 0o600 });
    try {
      fs.renameSync(partial, dir);
    } catch {
      // Another run finished first: its build is the same commit's, checked against its own record.
      fs.rmSync(partial, { recursive: true, force: true });
      const theirs = reusableBuild(dir, lockHash);
      if (theirs) return { commit, dir, built: false, modules: theirs };
      throw new Error(`Versão anterior: outra execução deixou ${dir} sem registro do build; apague a pasta e rode de novo.`);
    }
    verifyBuild(dir, record);
    return { commit, dir, built: true, modules };
  } catch (error) {
    fs.rmSync(partial, { recursive: true, force: true });
    throw error;
  }
}
