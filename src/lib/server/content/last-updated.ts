import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { readPageHistorySettings } from "../config/page-history.ts";
import { readSetting } from "../../settings.ts";

/** A file's last commit date, or null (not committed, not a git checkout, git missing). */
function lastCommitDate(file: string): Date | null {
  try {
    const iso = execFileSync("git", ["log", "-1", "--format=%cI", "--", file], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    }).trim();
    return iso ? new Date(iso) : null;
  } catch {
    return null;
  }
}

/** The repository's index file (it changes with every commit, checkout, pull or reset); none outside a checkout. */
function gitIndexFile(root = process.cwd()): string | null {
  const dotGit = path.join(root, ".git");
  try {
    if (fs.statSync(dotGit).isDirectory()) return path.join(dotGit, "index");
    // A worktree: `.git` is a file naming its own git folder.
    const gitDir = /^gitdir: (.+)$/m.exec(fs.readFileSync(dotGit, "utf8"))?.[1]?.trim();
    return gitDir ? path.join(path.resolve(root, gitDir), "index") : null;
  } catch {
    return null;
  }
}

const mtime = (file: string | null) => (file ? (fs.statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? 0) : 0);

/**
 * `lastUpdated` asking `readCommitDate` once per file until the file or the repository's index changes:
 * `astro dev` renders a page on every visit, and a `git log` per render cost ~15 ms of each.
 */
export function cachedLastUpdated(readCommitDate: (file: string) => Date | null, indexFile = gitIndexFile()) {
  const known = new Map<string, { key: string; date: Date }>();
  return (file: string): Date => {
    const key = `${mtime(file)}:${mtime(indexFile)}`;
    const cached = known.get(file);
    if (cached?.key === key) return cached.date;
    const date = readCommitDate(file) ?? fs.statSync(file).mtime;
    known.set(file, { key, date });
    return date;
  };
}

/** When a content file last changed: its last git commit, else the file's modification time. */
export const lastUpdated = cachedLastUpdated(lastCommitDate);

/** 'Atualizado em' date in pt-BR, in the display time zone. */
export function formatUpdated(date: Date, timeZone = readSetting("TZ_DISPLAY") ?? "America/Sao_Paulo"): string {
  return new Intl.DateTimeFormat("pt-BR", { dateStyle: "long", timeZone }).format(date);
}

/** 'Editar esta página' address: EDIT_URL_BASE (a folder of the repository's web editor) + the file's path. */
export function editUrl(file: string, base = readPageHistorySettings().editUrlBase): string | null {
  if (!base) return null;
  return base.replace(/\/?$/, "/") + file.split("\\").join("/");
}
