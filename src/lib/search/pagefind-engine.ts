/**
 * The dialog's search engine: Pagefind loaded from /pagefind/ (the person's primary bundle) with the
 * bundles the gate lists in /pagefind/grupos.json merged in, and the `termos.json` and (on the first
 * word that matches nothing) `vocabulario.json` of the same bundles (src/lib/search/terms.ts) — so
 * every synonym, correction and suggestion comes only from pages this person may open.
 */
import { mergeTerms, runQuery, type Answer, type Engine, type Terms, type TermsFile, type Vocabulary } from "./query.ts";
import { TERMS_FILE, VOCABULARY_FILE } from "./terms.ts";

export interface PagefindResult {
  id: string;
  score: number;
  data: () => Promise<PagefindData>;
}

export interface PagefindSubResult {
  title: string;
  url: string;
  excerpt: string;
  weighted_locations?: { weight: number }[];
}

export interface PagefindData {
  url: string;
  excerpt: string;
  meta: { title?: string };
  sub_results?: PagefindSubResult[];
}

interface Pagefind {
  search: (query: string) => Promise<{ results: PagefindResult[] } | null>;
  mergeIndex: (url: string) => Promise<void>;
}

/** A JSON file of the person's bundles, or null where it is missing (an older build) or unreadable. */
async function readJson<T>(url: string): Promise<T | null> {
  try {
    const response = await fetch(url, { credentials: "same-origin" });
    return response.ok ? ((await response.json()) as T) : null;
  } catch {
    return null;
  }
}

export function createPagefindEngine(): Engine<PagefindResult> & { ready: () => Promise<unknown> } {
  const groups = readJson<unknown>("/pagefind/grupos.json").then((list) =>
    Array.isArray(list) ? list.filter((group): group is string => typeof group === "string") : [],
  );
  const bundleUrls = groups.then((list) => ["/pagefind/", ...list.map((group) => `/pagefind/grupos/${encodeURIComponent(group)}/`)]);
  const pagefind = (async () => {
    const url = "/pagefind/pagefind.js";
    const index = (await import(/* @vite-ignore */ url)) as Pagefind;
    for (const bundle of (await bundleUrls).slice(1)) await index.mergeIndex(bundle);
    return index;
  })();
  // The gate merges the terms of every bundle this person reads into /pagefind/<file> (one request).
  const terms: Promise<Terms> = readJson<TermsFile>(`/pagefind/${TERMS_FILE}`).then((file) => mergeTerms([file]));
  let vocabulary: Promise<Vocabulary> | undefined;
  return {
    ready: () => Promise.all([pagefind, terms]),
    async search(text) {
      const found = await (await pagefind).search(text);
      return (found?.results ?? []).map((result) => ({ id: result.id, score: result.score, result }));
    },
    terms: () => terms,
    vocabulary() {
      vocabulary ??= readJson<TermsFile>(`/pagefind/${VOCABULARY_FILE}`).then((file) => mergeTerms([file]).vocabulary);
      return vocabulary;
    },
  };
}

/** What the dialog holds after its first open: Pagefind and the terms loading, and a query runner over them. */
export interface SearchSession {
  ready: () => Promise<unknown>;
  run: (query: string) => Promise<Answer<PagefindResult>>;
}

export function createSearchSession(): SearchSession {
  const engine = createPagefindEngine();
  return { ready: engine.ready, run: (query) => runQuery(query, engine) };
}
