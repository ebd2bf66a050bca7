import { execFileSync } from "node:child_process";
import fs from "node:fs";

/** When a content file last changed: its last git commit, else the file's modification time. */
export function lastUpdated(file: string): Date {
  try {
    const iso = execFileSync("git", ["log", "-1", "--format=%cI", "--", file], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    }).trim();
    if (iso) return new Date(iso);
  } catch {
    // Not a git checkout (or git missing): fall back to the file time.
  }
  return fs.statSync(file).mtime;
}

/** 'Atualizado em' date in pt-BR, in the display time zone. */
export function formatUpdated(date: Date, timeZone = process.env.TZ_DISPLAY ?? "America/Sao_Paulo"): string {
  return new Intl.DateTimeFormat("pt-BR", { dateStyle: "long", timeZone }).format(date);
}

/** 'Editar esta página' address: CONTENT_EDIT_URL (a folder of the repository's web editor) + the file's path. */
export function editUrl(file: string, base = process.env.CONTENT_EDIT_URL ?? ""): string | null {
  if (!base) return null;
  return base.replace(/\/?$/, "/") + file.split("\\").join("/");
}
