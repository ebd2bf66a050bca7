import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

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

/** The environment of a command run by hand: vitest's NODE_ENV=test and VITEST* would change how Astro runs. */
function cleanEnv(): NodeJS.ProcessEnv {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => key !== "NODE_ENV" && key !== "TEST" && !key.startsWith("VITEST")),
  );
  return { ...env, FORCE_COLOR: "0", NO_COLOR: "1" };
}

/**
 * A copy of the project in its own git repository, where a test writes content, commits it as an
 * editor would and builds the site (each build reads the versions from this repository's history).
 */
export class ContentProject {
  readonly root = fs.mkdtempSync(path.join(os.tmpdir(), "b1-reading-project-"));

  constructor() {
    for (const entry of fs.readdirSync(".")) {
      if (!LEFT_OUT.has(entry)) fs.cpSync(entry, path.join(this.root, entry), { recursive: true });
    }
    fs.symlinkSync(path.resolve("node_modules"), path.join(this.root, "node_modules"), "dir");
    this.git("init", "-q");
    this.git("config", "user.email", "editor@b1.example.com");
    this.git("config", "user.name", "Editor");
  }

  private git(...args: string[]): void {
    execFileSync("git", args, { cwd: this.root, stdio: "ignore" });
  }

  write(file: string, text: string): void {
    fs.writeFileSync(path.join(this.root, file), text);
  }

  commit(message: string): void {
    this.git("add", "-A");
    this.git("commit", "-q", "-m", message);
  }

  /** `npm run build` in the copy; throws with the end of its output when it fails. */
  build(): void {
    const result = spawnSync("npm", ["run", "build"], { cwd: this.root, encoding: "utf8", env: cleanEnv() });
    if (result.status !== 0) throw new Error(`build falhou:\n${`${result.stdout}\n${result.stderr}`.slice(-4000)}`);
  }

  remove(): void {
    fs.rmSync(this.root, { recursive: true, force: true });
  }
}

/** An MDX page of the fixture, marked as required reading at `version`. */
export function requiredMdx(options: { title: string; access: string; version: number; summary: string; body: string }): string {
  return [
    "---",
    `title: ${options.title}`,
    "description: Página de teste de leitura obrigatória.",
    `access: ${options.access}`,
    "leitura:",
    `  versao: ${options.version}`,
    `  resumo: ${options.summary}`,
    "---",
    "",
    options.body,
  ].join("\n");
}
