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
  /** A YAML file whose values read the same before and after (only quoting or layout changed): nothing for readers. */
  same?: boolean;
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

function parsed(text: string | null): unknown {
  if (text === null) return undefined;
  try {
    return parse(text) as unknown;
  } catch {
    return undefined;
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** The name an entry is shown by (its title, term, question, name or id), if it has one. */
function nameOf(value: unknown): string | undefined {
  if (!isRecord(value)) return undefined;
  for (const key of [...NAME_FIELDS, "id"]) {
    if (Object.hasOwn(value, key) && typeof value[key] === "string" && value[key]) return value[key];
  }
  return undefined;
}

/** A text as readers see it, quoted and cut at a word near 48 characters. */
function excerpt(value: unknown): string {
  const text = (typeof value === "string" ? value : JSON.stringify(value)).replace(/\s+/g, " ").trim();
  if (text.length <= 48) return `“${text}”`;
  const cut = text.slice(0, 48);
  return `“${cut.slice(0, cut.lastIndexOf(" ") > 20 ? cut.lastIndexOf(" ") : 48).trim()}…”`;
}

/**
 * A YAML file that is an object (fast-track.yaml, sementezz.yaml…), walked side by side: list items are
 * matched by id or name; a change inside a named entry names the entry; a text outside any is quoted.
 */
function objectChange(before: unknown, after: unknown): FileChange {
  const change: FileChange = { added: [], changed: [], removed: [], links: [] };
  const key = (item: unknown, index: number) => {
    if (isRecord(item)) return `n:${(Object.hasOwn(item, "id") && typeof item.id === "string" && item.id) || nameOf(item) || index}`;
    return typeof item === "string" ? `s:${item}` : `i:${index}`;
  };
  const walk = (old: unknown, now: unknown, owner: string | undefined): void => {
    if (JSON.stringify(old) === JSON.stringify(now)) return;
    if (old === undefined) {
      if (owner) change.changed.push(owner);
      else if (Array.isArray(now)) now.forEach((item) => walk(undefined, item, undefined));
      else if (nameOf(now)) change.added.push(nameOf(now)!);
      else if (isRecord(now)) for (const inner of Object.values(now)) walk(undefined, inner, undefined);
      else change.added.push(excerpt(now));
      return;
    }
    if (now === undefined) {
      if (owner) change.changed.push(owner);
      else if (Array.isArray(old)) old.forEach((item) => walk(item, undefined, undefined));
      else if (nameOf(old)) change.removed.push(nameOf(old)!);
      else if (isRecord(old)) for (const inner of Object.values(old)) walk(inner, undefined, undefined);
      else change.removed.push(excerpt(old));
      return;
    }
    if (Array.isArray(old) && Array.isArray(now)) {
      const oldItems = new Map(old.map((item, index) => [key(item, index), item]));
      const nowItems = new Map(now.map((item, index) => [key(item, index), item]));
      // An entry that gained (or changed) its id is still the entry of the same name.
      const byName = new Map([...oldItems].filter(([itemKey]) => !nowItems.has(itemKey)).map(([itemKey, item]) => [nameOf(item), itemKey]));
      for (const [itemKey, item] of nowItems) {
        const previous = oldItems.has(itemKey) ? itemKey : nameOf(item) !== undefined ? byName.get(nameOf(item)) : undefined;
        if (previous !== undefined && previous !== itemKey) byName.delete(nameOf(item));
        walk(previous === undefined ? undefined : oldItems.get(previous), item, owner);
      }
      const paired = new Set(byName.values());
      for (const [itemKey, item] of oldItems) if (!nowItems.has(itemKey) && paired.has(itemKey)) walk(item, undefined, owner);
      return;
    }
    if (isRecord(old) && isRecord(now)) {
      const named = nameOf(now) ?? owner;
      if (nameOf(now) && nameOf(old) !== nameOf(now)) change.changed.push(nameOf(now)!);
      for (const name of new Set([...Object.keys(old), ...Object.keys(now)])) walk(old[name], now[name], named);
      return;
    }
    change.changed.push(owner ?? nameOf(now) ?? excerpt(now));
  };
  walk(before, after, undefined);
  return change;
}

export function fileChange(file: string, before: string | null, after: string | null, linkable: boolean): FileChange {
  if (file.endsWith(".mdx")) return mdxChange(before, after, linkable);
  const [old, now] = [parsed(before), parsed(after)];
  if (before !== null && after !== null && JSON.stringify(old) === JSON.stringify(now)) {
    return { added: [], changed: [], removed: [], links: [], same: true };
  }
  return Array.isArray(now) || Array.isArray(old) ? yamlChange(before, after) : objectChange(old, now);
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
