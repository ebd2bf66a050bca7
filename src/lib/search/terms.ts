/**
 * The two small files each search bundle carries beside Pagefind's (scripts/build-search.ts):
 * `termos.json`, how many pages the bundle holds and the synonym entries whose page words are on its
 * pages, and `vocabulario.json`, the words of its pages (typo corrections, completions and "Termos
 * próximos"). The gate serves a bundle's
 * files only to whoever may read the bundle, so a reader's synonyms, corrections and suggestions come
 * only from pages they may open.
 */
import { MIN_CORRECTED_LENGTH, normalizePhrase, words, type TermsFile } from "./query.ts";

/** Served names, beside pagefind.js in each bundle: the page count and synonyms (fetched with Pagefind), and the words (fetched when a word matches nothing). */
export const TERMS_FILE = "termos.json";
export const VOCABULARY_FILE = "vocabulario.json";

/** A synonym entry as editors write it (content/busca/sinonimos.yaml). */
export interface SynonymSource {
  termos: readonly string[];
  nas_paginas: readonly string[];
}

/**
 * The words of `texts` a typo could be corrected to: letters only, at least MIN_CORRECTED_LENGTH long,
 * each normalised word once in its most common spelling (lower case unless always written in capitals),
 * most frequent first, joined by spaces.
 */
export function vocabularyOf(texts: readonly string[]): string {
  const byNorm = new Map<string, { count: number; spellings: Map<string, number> }>();
  for (const text of texts)
    for (const word of words(text)) {
      if (word.norm.length < MIN_CORRECTED_LENGTH || !/^[\p{L}-]+$/u.test(word.norm)) continue;
      const spelling = word.typed === word.typed.toUpperCase() ? word.typed : word.typed.toLocaleLowerCase("pt-BR");
      let entry = byNorm.get(word.norm);
      if (!entry) byNorm.set(word.norm, (entry = { count: 0, spellings: new Map() }));
      entry.count += 1;
      entry.spellings.set(spelling, (entry.spellings.get(spelling) ?? 0) + 1);
    }
  return [...byNorm.values()]
    .map(({ count, spellings }) => ({ count, display: [...spellings].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]![0] }))
    .sort((a, b) => b.count - a.count || a.display.localeCompare(b.display))
    .map((word) => word.display)
    .join(" ");
}

/** `phrase` (normalised) appears in `text` (normalised, words joined by single spaces) as whole words. */
function containsPhrase(text: string, phrase: string): boolean {
  return ` ${text} `.includes(` ${phrase} `);
}

/**
 * The synonym entries a bundle may carry: only the page words that are on its pages, and only entries
 * left with at least one. A term that is itself on another page but not in this bundle is left out
 * too, so no term tells a reader what a page they cannot open says.
 */
export function synonymsFor(
  entries: readonly SynonymSource[],
  bundleTexts: readonly string[],
  allTexts: readonly string[],
): [string[], string[]][] {
  const bundle = bundleTexts.map(normalizePhrase).join(" \u0000 ");
  const all = allTexts.map(normalizePhrase).join(" \u0000 ");
  const kept: [string[], string[]][] = [];
  for (const entry of entries) {
    const pageWords = entry.nas_paginas.filter((phrase) => containsPhrase(bundle, normalizePhrase(phrase)));
    if (!pageWords.length) continue;
    const terms = entry.termos.filter((term) => {
      const norm = normalizePhrase(term);
      return containsPhrase(bundle, norm) || !containsPhrase(all, norm);
    });
    if (terms.length) kept.push([[...terms], pageWords]);
  }
  return kept;
}

/** A bundle's `termos.json` and `vocabulario.json`. */
export function termsFor(
  entries: readonly SynonymSource[],
  bundleTexts: readonly string[],
  allTexts: readonly string[],
): { terms: TermsFile; vocabulary: TermsFile } {
  return {
    terms: { paginas: bundleTexts.length, sinonimos: synonymsFor(entries, bundleTexts, allTexts) },
    vocabulary: { palavras: vocabularyOf(bundleTexts) },
  };
}
