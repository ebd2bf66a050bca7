/**
 * Page histories at build time (issue 66), from the commits /novidades already reads (news.ts): each
 * version of a page is a news item of that page (same summary: `Novidade:` line, required version's
 * `resumo` or the diff's sections), with its author and the page's readable sections at that commit.
 * A file belongs to one page only, so a page's history holds nothing of another page.
 */
import fs from "node:fs";
import path from "node:path";
import { parse } from "yaml";
import type { ContentPageEntry } from "../../src/lib/content-manifest.ts";
import type { HistoryManifest, HistorySection, PageHistory } from "../../src/lib/content/page-history.ts";
import type { NewsManifest } from "../../src/lib/reading/news.ts";
import { OPENING_SECTION_ID, splitSections } from "../../src/lib/reading/sections.ts";
import { STATIC_ROUTES } from "../../src/lib/routes.ts";
import { MDX_FOLDERS, YAML_FILES } from "../../src/collections/yaml-files.ts";
import { splitFrontmatter } from "./frontmatter.ts";
import { fileAt, pageOfFile, type ContentCommit } from "./news.ts";

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
const NAME_FIELDS = ["title", "term", "question", "name", "titulo", "nome", "id"] as const;

function nameOf(value: Record<string, unknown>): string | undefined {
  for (const key of NAME_FIELDS) {
    if (Object.hasOwn(value, key) && typeof value[key] === "string" && value[key]) return value[key];
  }
  return undefined;
}

/** Fields that place or decorate an entry (its icon, colour, position), not words a reader reads. */
const LAYOUT_KEYS = new Set([
  "icon",
  "icone",
  "color",
  "cor",
  "order",
  "ordem",
  "number",
  "numero",
  "slug",
  "href",
  "url",
  "link",
  "image",
  "imagem",
  "kind",
]);

/** Words a reader sees: strings, without ids, icon names, addresses and paths. */
function leaves(value: unknown): string[] {
  if (typeof value === "string")
    return /^(https?:|mailto:|\/|#)/.test(value) || /^[a-z0-9_-]+$/.test(value) ? [] : [value.replace(/\s+/g, " ").trim()];
  if (typeof value === "number") return [String(value)];
  if (Array.isArray(value)) return value.flatMap(leaves);
  if (isRecord(value)) return Object.entries(value).flatMap(([key, inner]) => (LAYOUT_KEYS.has(key) ? [] : leaves(inner)));
  return [];
}

/** A YAML value as sections: one per named entry (its title, term, question or name), loose text in an opening one. */
export function yamlSections(value: unknown): { title: string; text: string }[] {
  const sections: { title: string; text: string }[] = [];
  const loose: string[] = [];
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (isRecord(node)) {
      const name = nameOf(node);
      if (name) sections.push({ title: name, text: leaves(node).join(" · ") });
      else Object.values(node).forEach(walk);
    } else loose.push(...leaves(node));
  };
  walk(value);
  const opening = loose.filter(Boolean);
  return opening.length ? [{ title: "Início da página", text: opening.join(" · ") }, ...sections] : sections;
}

/** The readable sections of one file's text. */
export function fileSections(file: string, text: string): { title: string; text: string }[] {
  if (file.endsWith(".mdx")) {
    const split = splitFrontmatter(text);
    let front: unknown = null;
    try {
      front = split.doc?.toJS() ?? null;
    } catch {
      front = null;
    }
    // A folder's file (a stage) names its opening text after itself: the page shows several.
    const name = isRecord(front) ? nameOf(front) : undefined;
    const body = splitSections(split.body).map((section) => ({
      title: section.id === OPENING_SECTION_ID && name ? `${name} (abertura)` : section.title,
      text: section.text,
    }));
    return [...(front ? yamlSections(front) : []), ...body];
  }
  let value: unknown;
  try {
    value = parse(text);
  } catch {
    return [];
  }
  return yamlSections(value);
}

/** Every page of the reading order that content files build, with its title. */
function contentPages(pages: readonly ContentPageEntry[]): { path: string; title: string }[] {
  const fromYaml = new Set<string>([
    ...Object.values(YAML_FILES).flatMap((entry) => (entry.page ? [entry.page] : [])),
    ...Object.values(MDX_FOLDERS).map((entry) => entry.page),
  ]);
  return [
    ...STATIC_ROUTES.filter((route) => route.reading && fromYaml.has(route.path)).map((route) => ({ path: route.path, title: route.name })),
    ...pages.map((page) => ({ path: page.path, title: page.title })),
  ];
}

export function pageHistories(
  root: string,
  commits: readonly ContentCommit[] | null,
  available: boolean,
  pages: readonly ContentPageEntry[],
  news: NewsManifest,
  hideAuthors: boolean,
): HistoryManifest {
  const histories = new Map<string, PageHistory>(
    contentPages(pages).map(({ path, title }) => [path, { path, title, files: [], versions: [], texts: [] }]),
  );
  for (const history of histories.values()) {
    const own = pages.find((page) => page.path === history.path)?.file;
    const yaml = Object.values(YAML_FILES)
      .filter((entry) => entry.page === history.path)
      .map((entry) => entry.file);
    const folders = Object.values(MDX_FOLDERS)
      .filter((entry) => entry.page === history.path)
      .flatMap((entry) => {
        const dir = path.join(root, entry.dir);
        return fs.existsSync(dir)
          ? fs
              .readdirSync(dir)
              .filter((name) => name.endsWith(".mdx"))
              .sort()
              .map((name) => `${entry.dir}/${name}`)
          : [];
      });
    history.files = [...(own ? [own] : []), ...folders, ...yaml];
  }
  if (!available || !commits) return { available: false, pages: [...histories.values()] };
  const summaries = new Map(news.items.map((item) => [item.id, item.resumo]));
  const textIndex = new Map<PageHistory, Map<string, number>>();
  const indexOf = (history: PageHistory, text: string): number => {
    let known = textIndex.get(history);
    if (!known) textIndex.set(history, (known = new Map()));
    let index = known.get(text);
    if (index === undefined) {
      index = history.texts.push(text) - 1;
      known.set(text, index);
    }
    return index;
  };
  /** Each file's text as of the commit walked last (null: not there). */
  const texts = new Map<string, string | null>();
  const sectionCache = new Map<string, { title: string; text: string }[]>();
  for (const commit of [...commits].reverse()) {
    const touched = new Set<string>();
    for (const file of commit.files) {
      const page = pageOfFile(file, pages);
      if (page === null || !histories.has(page)) continue;
      texts.set(file, fileAt(root, commit.commit, file));
      touched.add(page);
    }
    for (const page of touched) {
      const summary = summaries.get(`${commit.commit.slice(0, 12)}:${page}`);
      if (summary === undefined) continue; // only quoting or layout changed: not a version readers can tell apart
      const history = histories.get(page)!;
      const files = [...texts.keys()].filter((file) => texts.get(file) !== null && pageOfFile(file, pages) === page).sort();
      const seen = new Map<string, number>();
      const sections: HistorySection[] = [];
      for (const file of files) {
        const text = texts.get(file)!;
        const cacheKey = `${file}\0${text}`;
        let parts = sectionCache.get(cacheKey);
        if (!parts) sectionCache.set(cacheKey, (parts = fileSections(file, text)));
        for (const part of parts) {
          const base = `${file}#${part.title}`;
          const count = (seen.get(base) ?? 0) + 1;
          seen.set(base, count);
          sections.push([count > 1 ? `${base}#${count}` : base, part.title, indexOf(history, part.text)]);
        }
      }
      history.versions.unshift({
        id: commit.commit.slice(0, 12),
        date: commit.date,
        ...(hideAuthors ? {} : { author: commit.author }),
        summary,
        sections,
      });
    }
  }
  return { available: true, pages: [...histories.values()] };
}
