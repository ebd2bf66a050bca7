/**
 * /novidades at build time: every commit that touched content/, as one item per page it changed
 * (page, date, summary), newest first. The summary is the new version's `resumo` (required reading),
 * else the commit's `Novidade:` line, else what the diff shows (news-diff.ts), else a neutral line. A file belongs to the page that shows it (YAML_FILES and
 * MDX_FOLDERS name it; content/paginas and content/guias by file name).
 */
import { execFileSync } from "node:child_process";
import { MDX_FOLDERS, YAML_FILES } from "../../src/collections/yaml-files.ts";
import type { ContentPageEntry } from "../../src/lib/content-manifest.ts";
import { describeChanges, fileChange } from "./news-diff.ts";
import type { NewsItem, NewsManifest } from "../../src/lib/reading/news.ts";
import type { RequiredPage } from "../../src/lib/reading/required-page.ts";
import { STATIC_ROUTES } from "../../src/lib/routes.ts";

/** The commit-message line an editor writes for readers: `Novidade: <resumo em português>`. */
const NEWS_TRAILER = "Novidade";
/** Shown for a change whose commit names no summary: commit subjects are for developers (and often in English). */
export const DEFAULT_NEWS_SUMMARY = "Conteúdo atualizado";

/** How many changes the build keeps (the oldest fall off). */
const MAX_ITEMS = 1000;

export function pageOfFile(file: string, pages: readonly ContentPageEntry[]): string | null {
  const yaml = Object.values(YAML_FILES).find((entry) => entry.file === file);
  if (yaml) return yaml.page;
  const folder = Object.values(MDX_FOLDERS).find((entry) => file.startsWith(`${entry.dir}/`) && file.endsWith(".mdx"));
  if (folder) return folder.page;
  return pages.find((page) => page.file === file)?.path ?? null;
}

/** One commit that touched content/, as `git log` records it. */
export interface ContentCommit {
  commit: string;
  /** ISO 8601 author date. */
  date: string;
  /** The author's name as git records it. */
  author: string;
  /** The commit's `Novidade:` line, if any. */
  written: string | undefined;
  files: string[];
}

function gitLog(root: string): string | null {
  try {
    return execFileSync(
      "git",
      ["log", `--format=%x1e%H%x1f%aI%x1f%an%x1f%(trailers:key=${NEWS_TRAILER},valueonly,separator=%x1d)`, "--name-only", "--", "content"],
      {
        cwd: root,
        encoding: "utf8",
        stdio: ["ignore", "pipe", "ignore"],
        maxBuffer: 64 * 1024 * 1024,
      },
    );
  } catch {
    return null; // not a git checkout: no history to show
  }
}

/** Every commit that touched content/, newest first; null outside a git checkout. Read once for /novidades and the page histories. */
export function contentCommits(root: string): ContentCommit[] | null {
  const log = gitLog(root);
  if (log === null) return null;
  return log
    .split("\x1e")
    .slice(1)
    .map((record) => {
      const [head = "", ...files] = record.split("\n");
      const [commit = "", date = "", author = "", trailers = ""] = head.split("\x1f");
      return {
        commit,
        date: new Date(date).toISOString(),
        author,
        written: trailers.split("\x1d")[0]?.trim() || undefined,
        files: files.map((name) => name.trim()).filter(Boolean),
      };
    });
}

/** Whether the checkout holds its history: false for a shallow clone or outside git (a tarball). */
export function historyAvailable(root: string): boolean {
  try {
    const shallow = execFileSync("git", ["rev-parse", "--is-shallow-repository"], {
      cwd: root,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    }).trim();
    return shallow === "false";
  } catch {
    return false;
  }
}

/** A file's text at a commit, or null (not there then, or the first commit's parent). */
const fileTexts = new Map<string, string | null>();

/**
 * Reads many files at commits with one `git cat-file --batch` (one process instead of one `git show`
 * each): /novidades and the page histories then find them in `fileAt`'s memory.
 */
export function prefetchFiles(root: string, wanted: readonly (readonly [revision: string, file: string])[]): void {
  const pending = wanted.filter(([revision, file]) => !fileTexts.has(`${root}\0${revision}\0${file}`));
  if (!pending.length || pending.some(([revision, file]) => /[\n\r]/.test(revision + file))) return;
  let out: Buffer;
  try {
    out = execFileSync("git", ["cat-file", "--batch"], {
      cwd: root,
      input: pending.map(([revision, file]) => `${revision}:${file}`).join("\n") + "\n",
      stdio: ["pipe", "pipe", "ignore"],
      maxBuffer: 256 * 1024 * 1024,
    });
  } catch {
    return; // fileAt asks git one file at a time
  }
  let at = 0;
  for (const [revision, file] of pending) {
    const end = out.indexOf(10, at);
    if (end === -1) return;
    const header = out.subarray(at, end).toString("utf8");
    at = end + 1;
    const found = /^[0-9a-f]+ (\w+) (\d+)$/.exec(header);
    if (!found) {
      fileTexts.set(`${root}\0${revision}\0${file}`, null); // missing: not there at that commit
      continue;
    }
    const size = Number(found[2]);
    const body = out.subarray(at, at + size).toString("utf8");
    at += size + 1;
    fileTexts.set(`${root}\0${revision}\0${file}`, found[1] === "blob" ? body : null);
  }
}

/** Read once per build: /novidades and the page histories ask for the same commits' files. */
export function fileAt(root: string, revision: string, file: string): string | null {
  const key = `${root}\0${revision}\0${file}`;
  if (fileTexts.has(key)) return fileTexts.get(key)!;
  let text: string | null;
  try {
    text = execFileSync("git", ["show", `${revision}:${file}`], {
      cwd: root,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
      maxBuffer: 64 * 1024 * 1024,
    });
  } catch {
    text = null;
  }
  fileTexts.set(key, text);
  return text;
}

export function contentNews(
  root: string,
  pages: readonly ContentPageEntry[],
  required: readonly RequiredPage[],
  commits: readonly ContentCommit[] = contentCommits(root) ?? [],
): NewsManifest {
  const titles = new Map<string, string>([
    ...STATIC_ROUTES.map((route) => [route.path, route.name] as const),
    ...pages.map((page) => [page.path, page.title] as const),
  ]);
  const items: NewsItem[] = [];
  for (const { commit, date, written, files } of commits) {
    const filesOfPage = new Map<string, string[]>();
    for (const file of files) {
      const page = pageOfFile(file, pages);
      if (page !== null) filesOfPage.set(page, [...(filesOfPage.get(page) ?? []), file]);
    }
    for (const [pagina, pageFiles] of filesOfPage) {
      const titulo = titles.get(pagina);
      if (!titulo) continue;
      const version = required.find((page) => page.path === pagina)?.versions.find((entry) => entry.commit === commit);
      const item: NewsItem = {
        id: `${commit.slice(0, 12)}:${pagina}`,
        pagina,
        titulo,
        data: new Date(date).toISOString(),
        resumo: version?.summary ?? written ?? DEFAULT_NEWS_SUMMARY,
      };
      if (!version && !written) {
        // No line for readers: the diff tells what changed (the page's own MDX file gets links to its sections).
        const own = pages.find((page) => page.path === pagina)?.file;
        const changes = pageFiles.map((file) =>
          fileChange(file, fileAt(root, `${commit}^`, file), fileAt(root, commit, file), file === own),
        );
        // Only quoting or layout changed (the values read the same): nothing to tell readers.
        if (changes.every((change) => change.same)) continue;
        item.resumo = describeChanges(changes) ?? DEFAULT_NEWS_SUMMARY;
        const links = changes.flatMap((change) => change.links);
        if (links.length) item.secoes = links.slice(0, 10);
      }
      items.push(item);
      if (items.length >= MAX_ITEMS) return { items };
    }
  }
  return { items };
}
