/**
 * Every shell block of the README is safe to paste whole: the first is the README's two commands
 * (install and start; install and test — CI runs the second), and any other is marked
 * `<!-- bloco-colavel: <nome> -->` and run here, whole, as a person would paste it. Commands to
 * run one at a time (removing a user, restoring a backup) live in tables, not in blocks. The
 * "Primeiro administrador" block used to remove the admin it had just created two lines later.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";

const README = fs.readFileSync("README.md", "utf8");
const SHELL = new Set(["bash", "sh", "shell", "console", "zsh"]);

interface Block {
  language: string;
  marker: string | null;
  code: string;
  line: number;
}

function fencedBlocks(markdown: string): Block[] {
  const lines = markdown.split("\n");
  const blocks: Block[] = [];
  for (let index = 0; index < lines.length; index++) {
    const open = /^```(\S*)/.exec(lines[index]!);
    if (!open) continue;
    const end = lines.findIndex((line, at) => at > index && line.startsWith("```"));
    const marker = /^<!-- bloco-colavel: (\S+) -->$/.exec(lines[index - 1] ?? "")?.[1] ?? null;
    blocks.push({ language: open[1]!, marker, code: lines.slice(index + 1, end).join("\n"), line: index + 1 });
    index = end;
  }
  return blocks;
}

describe("README blocks", () => {
  const blocks = fencedBlocks(README);

  it("opens with the two commands and marks every other shell block as tested", () => {
    const shell = blocks.filter((block) => SHELL.has(block.language));
    expect(shell[0]!.line).toBe(3);
    expect(shell[0]!.code.split("\n").map((line) => line.split(/\s+#/)[0]!.trim())).toEqual(["bash scripts/start.sh", "bash .ci/run"]);
    const unmarked = shell.slice(1).filter((block) => block.marker === null);
    expect(unmarked.map((block) => `README.md:${block.line}`)).toEqual([]);
    // A block without a language is a shell block to a reader: each says what it is.
    expect(blocks.filter((block) => block.language === "").map((block) => `README.md:${block.line}`)).toEqual([]);
  });

  it("stays an entry point a newcomer reads in five minutes (at most 200 lines; measurements live in docs/desempenho.md)", () => {
    expect(README.split("\n").length).toBeLessThanOrEqual(200);
  });

  it("the first-admin block, pasted whole, leaves an admin who can sign in", { timeout: 60_000 }, () => {
    const block = blocks.find((candidate) => candidate.marker === "primeiro-admin");
    expect(block).toBeDefined();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "b1-readme-"));
    try {
      const env: Record<string, string | undefined> = { ...process.env, DATABASE_PATH: path.join(dir, "b1.sqlite") };
      delete env.DATABASE_URL;
      delete env.AUTH_ALLOWED_DOMAINS;
      delete env.AUTH_ALLOWED_EMAILS;
      // Pasted into an interactive shell nothing stops at an error; `-e` here makes a failing line fail the test.
      const run = spawnSync("bash", ["-e", "-c", block!.code], { env, encoding: "utf8" });
      expect(run.status, run.stderr).toBe(0);
      expect(run.stdout).toMatch(/voce@b1\.example\.com\tSeu Nome\tadmin/);
      const db = new Database(path.join(dir, "b1.sqlite"), { readonly: true });
      const admin = db
        .prepare(
          "select u.email, u.email_confirmed_at, r.name from users u join user_roles ur on ur.user_id = u.id join roles r on r.id = ur.role_id where u.email = ?",
        )
        .get("voce@b1.example.com") as { email: string; email_confirmed_at: number | null; name: string } | undefined;
      db.close();
      expect(admin).toMatchObject({ email: "voce@b1.example.com", name: "admin" });
      expect(admin!.email_confirmed_at).not.toBeNull();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
