/**
 * The dialog's search engine: Pagefind loaded from /pagefind/ (the person's primary bundle) with the
 * bundles the gate lists in /pagefind/grupos.json merged in, and the `termos.json` of the same bundles
 * (src/lib/search/terms.ts) — so every synonym, correction and suggestion comes only from pages this
 * person may open.
 */
import { mergeTerms, type Engine, type Terms, type TermsFile } from "./query.ts";
import { TERMS_FILE } from "./terms.ts";

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
  const terms: Promise<Terms> = bundleUrls.then(async (urls) =>
    mergeTerms(await Promise.all(urls.map((url) => readJson<TermsFile>(url + TERMS_FILE)))),
  );
  return {
    ready: () => Promise.all([pagefind, terms]),
    async search(text) {
      const found = await (await pagefind).search(text);
      return (found?.results ?? []).map((result) => ({ id: result.id, score: result.score, result }));
    },
    terms: () => terms,
  };
}
