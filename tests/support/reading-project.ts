import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { cleanEnv, copyProject } from "../../scripts/dev/project-copy";

/**
 * A copy of the project in its own git repository, where a test writes content, commits it as an
 * editor would and builds the site (each build reads the versions from this repository's history).
 */
export class ContentProject {
  readonly root = copyProject("b1-reading-project-");

  constructor() {
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
