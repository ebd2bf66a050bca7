/**
 * Two versions of a page compared as readable text: sections added, removed and changed, and in a
 * changed section the sentences inserted and deleted (jsdiff's array diff over sentences: a YAML
 * entry's fields are joined by " · ", so they count as sentences too).
 */
import { diffArrays } from "diff";
import type { PageHistory } from "./page-history.ts";

export type Part = { kind: "same" | "ins" | "del"; text: string };

export interface Comparison {
  added: { title: string; text: string }[];
  removed: { title: string; text: string }[];
  changed: { title: string; parts: Part[] }[];
}

/** A text cut after each sentence's end (. ! ? or a field's ·), spaces kept with the sentence before. */
export function sentences(text: string): string[] {
  return text.match(/[^.!?·]+(?:[.!?·]+|$)\s*/g)?.filter((part) => part.trim()) ?? [];
}

export function compareVersions(history: PageHistory, fromId: string, toId: string): Comparison | null {
  const from = history.versions.find((version) => version.id === fromId);
  const to = history.versions.find((version) => version.id === toId);
  if (!from || !to) return null;
  const text = (index: number) => history.texts[index] ?? "";
  const before = new Map(from.sections.map(([key, title, index]) => [key, { title, text: text(index) }]));
  const after = new Set(to.sections.map(([key]) => key));
  const comparison: Comparison = { added: [], removed: [], changed: [] };
  for (const [key, title, index] of to.sections) {
    const old = before.get(key);
    if (!old) comparison.added.push({ title, text: text(index) });
    else if (old.text !== text(index)) {
      comparison.changed.push({
        title,
        parts: diffArrays(sentences(old.text), sentences(text(index))).map((change) => ({
          kind: change.added ? "ins" : change.removed ? "del" : "same",
          text: change.value.join(""),
        })),
      });
    }
  }
  for (const [key, title] of from.sections) if (!after.has(key)) comparison.removed.push({ title, text: before.get(key)!.text });
  return comparison;
}
