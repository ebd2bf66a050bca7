/**
 * What a content commit changed, told from the diff when its message has no `Novidade:` line: for an
 * MDX file, the sections (by ## / ### heading) added, changed and removed; for a YAML list, the entries
 * (by id, named by their title, term, question or name). Only the page's own MDX file gets links (its
 * heading ids are the page's); other files are named without one.
 */
import { parse } from "yaml";
import type { NewsSection } from "../../src/lib/reading/news.ts";
import { OPENING_SECTION_ID, splitSections } from "../../src/lib/reading/sections.ts";
import { splitFrontmatter } from "./frontmatter.ts";

export interface FileChange {
  added: string[];
  changed: string[];
  removed: string[];
  /** Sections added or changed that can be linked on the page. */
  links: NewsSection[];
}

const NAME_FIELDS = ["title", "term", "question", "name", "titulo", "nome"] as const;

function mdxChange(before: string | null, after: string | null, linkable: boolean): FileChange {
  const sectionsOf = (text: string | null) => (text === null ? [] : splitSections(splitFrontmatter(text).body));
  const old = sectionsOf(before);
  const now = sectionsOf(after);
  const oldText = new Map(old.map((section) => [section.id, section.text]));
  const nowIds = new Set(now.map((section) => section.id));
  // The text before the first heading has no heading of its own: new or edited, it is "changed".
  const isNew = (section: { id: string }) => !oldText.has(section.id) && section.id !== OPENING_SECTION_ID;
  const added = now.filter(isNew);
  const changed = now.filter((section) => !isNew(section) && oldText.get(section.id) !== section.text);
  return {
    added: added.map((section) => section.title),
    changed: changed.map((section) => section.title),
    removed: old.filter((section) => !nowIds.has(section.id) && section.id !== OPENING_SECTION_ID).map((section) => section.title),
    links: linkable ? [...added, ...changed].map((section) => ({ id: section.id, titulo: section.title })) : [],
  };
}

/** The entries of a YAML list keyed by id (or name), each with its name and its text for comparison. */
function entriesOf(text: string | null): Map<string, { name: string; text: string }> {
  const entries = new Map<string, { name: string; text: string }>();
  let list: unknown;
  try {
    list = text === null ? [] : parse(text);
  } catch {
    return entries;
  }
  if (!Array.isArray(list)) return entries;
  for (const entry of list) {
    if (!entry || typeof entry !== "object" || Array.isArray(entry)) continue;
    const record = entry as Record<string, unknown>;
    const field = (key: string) => (Object.hasOwn(record, key) && typeof record[key] === "string" ? (record[key] as string) : undefined);
    const name = NAME_FIELDS.map(field).find(Boolean) ?? field("id");
    const key = field("id") ?? name;
    if (name && key) entries.set(key, { name, text: JSON.stringify(entry) });
  }
  return entries;
}

function yamlChange(before: string | null, after: string | null): FileChange {
  const old = entriesOf(before);
  const now = entriesOf(after);
  const names = (keys: Iterable<string>, from: Map<string, { name: string }>) => [...keys].map((key) => from.get(key)!.name);
  return {
    added: names(
      [...now.keys()].filter((key) => !old.has(key)),
      now,
    ),
    changed: names(
      [...now.keys()].filter((key) => old.has(key) && old.get(key)!.text !== now.get(key)!.text),
      now,
    ),
    removed: names(
      [...old.keys()].filter((key) => !now.has(key)),
      old,
    ),
    links: [],
  };
}

export function fileChange(file: string, before: string | null, after: string | null, linkable: boolean): FileChange {
  return file.endsWith(".mdx") ? mdxChange(before, after, linkable) : yamlChange(before, after);
}

/** At most five names, then how many more. */
function names(list: readonly string[]): string {
  const unique = [...new Set(list)];
  return unique.length <= 5 ? unique.join(", ") : `${unique.slice(0, 5).join(", ")} e mais ${unique.length - 5}`;
}

/** One Portuguese line for the changes of one page in one commit, or null when nothing named changed. */
export function describeChanges(changes: readonly FileChange[]): string | null {
  const all = (key: "added" | "changed" | "removed") => changes.flatMap((change) => change[key]);
  const parts = [
    all("added").length ? `Novo: ${names(all("added"))}.` : "",
    all("changed").length ? `Alterado: ${names(all("changed"))}.` : "",
    all("removed").length ? `Removido: ${names(all("removed"))}.` : "",
  ].filter(Boolean);
  return parts.length ? parts.join(" ") : null;
}
