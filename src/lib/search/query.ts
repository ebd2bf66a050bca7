/**
 * Queries as people type them, on top of Pagefind (which finds a page only when every word of the
 * query is on it, joins word forms only through its stemmer and knows no synonyms or typos).
 *
 * A query becomes "concepts": a run of words that is a synonym term the editors listed
 * (content/busca/sinonimos.yaml), or one word that matters (stop words and question words left out).
 * Each concept is searched in each of its spellings — the word itself, the forms the stemmer does
 * not join ("validação"/"validar", "graduais"/"gradual"), the words the pages use for the synonym,
 * and, when nothing matches it, the nearest word of the reader's own pages (one letter away) — and
 * a page's score adds, for each concept, its best normalised Pagefind score weighted by how rare
 * the concept is. A page that has every word of the query as typed gets a bonus on top.
 *
 * Everything here is pure; the dialog (SearchDialog.astro) and the tests give it a Pagefind-like
 * `search` and the reader's own synonym and vocabulary lists (served per person by the gate).
 */
import { normalizeForSearch } from "./text.ts";

/**
 * Words that carry no subject in a Portuguese query: articles, prepositions, pronouns, question
 * words and the verbs people wrap a question in ("como posso…", "onde encontro…"). A query made only
 * of them is searched as typed.
 */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    "a o as os um uma uns umas de do da dos das d em no na nos nas num numa por pelo pela pelos pelas para pra pro " +
    "com sem sob sobre ate apos entre contra desde ao aos e ou mas nem que se ja nao sim tambem so muito mais menos " +
    "bem mal la aqui ali isso isto esse essa esses essas este esta estes estas aquele aquela aquilo " +
    "eu tu ele ela nos vos eles elas me te lhe lhes meu minha meus minhas teu tua seu sua seus suas nosso nossa " +
    "nossos nossas voce voces dele dela deles delas " +
    "como qual quais quando onde quem quanto quanta quantos quantas porque oque cade " +
    "sao sou somos ser sera seja foi era eram estar esta estao ter tem tenho temos tinha ha haver fazer faco faz fazemos " +
    "posso pode podemos consigo devo deve devemos preciso precisa precisamos quero queria gostaria " +
    "existe existem usar encontro encontrar acho achar saber sei fica ficam"
  ).split(" "),
);

/** Words shorter than this are never typo-corrected (and a lone letter is never searched). */
export const MIN_CORRECTED_LENGTH = 4;

/** What each kind of spelling of a concept weighs, against the word as typed. */
export const WEIGHTS = { typed: 1, form: 0.9, synonym: 0.9, correction: 0.8, acronym: 1, literal: 0.7 } as const;

/** Typed with two or more capitals ("DoR", "OKR", "PoC"): the person means the acronym, not a word that shares its letters ("dor"). */
const ACRONYM = /^(?=(?:.*\p{Lu}){2})[\p{L}\p{N}]{2,6}$/u;
/** The bonus a page gets for having every word of the query as typed (Pagefind's own match). */
export const WHOLE_QUERY_BONUS = 0.5;

export type SpellingKind = keyof typeof WEIGHTS;

export interface Spelling {
  /** The text given to Pagefind (may be several words: every one must be on the page). */
  text: string;
  kind: SpellingKind;
}

export interface Concept {
  /** The words of the query it stands for, as typed. */
  typed: string;
  spellings: Spelling[];
}

/** One synonym entry as served: what people type → the words the pages use (both normalised). */
export interface SynonymEntry {
  terms: readonly string[];
  pageWords: readonly string[];
}

/**
 * `termos.json` of a search bundle (scripts/build-search.ts, src/lib/search/terms.ts): how many pages
 * it holds, the synonym entries its pages answer (`[terms, page words]`) and its words, most frequent
 * first, joined by spaces.
 */
export interface TermsFile {
  paginas?: number;
  sinonimos?: [string[], string[]][];
  /** In `vocabulario.json` (fetched only when a word matches nothing). */
  palavras?: string;
}

/** What a reader's bundles say together. */
export interface Terms {
  pages: number;
  synonyms: SynonymEntry[];
  vocabulary: Vocabulary;
}

/** A word as the reader typed it and its normalised form (lower case, no accents). */
export interface Word {
  typed: string;
  norm: string;
}

/** Letters and digits, with inner hyphens kept ("pré-execução", "resultados-chave"). */
const WORD = /[\p{L}\p{N}]+(?:-[\p{L}\p{N}]+)*/gu;
/** What a query is cut to: longer text is a paste, not a question (and each word costs searches). */
export const MAX_QUERY_LENGTH = 200;
export const MAX_CONCEPTS = 8;

/** The words of `text`; invisible format characters (bidi marks, zero-width joiners) do not split a word. */
export function words(text: string): Word[] {
  return [...text.replace(/\p{Cf}/gu, "").matchAll(WORD)].map(([typed]) => ({ typed, norm: normalizeForSearch(typed) }));
}

export function normalizePhrase(text: string): string {
  return words(text)
    .map((word) => word.norm)
    .join(" ");
}

/**
 * The forms of a word Pagefind's Portuguese stemmer does not join to it: a "-ção" noun and its verb,
 * "-mento" and its verb, and the plurals "-ais", "-éis", "-ões", "-ns" and their singulars (both ways).
 * Words that do not exist simply match nothing.
 */
export function wordForms(norm: string): string[] {
  const forms = new Set<string>();
  const ends = (suffix: string) => norm.length > suffix.length + 2 && norm.endsWith(suffix);
  const stem = (suffix: string) => norm.slice(0, norm.length - suffix.length);
  if (ends("coes")) forms.add(stem("coes") + "cao").add(stem("coes") + "r");
  else if (ends("cao")) forms.add(stem("cao") + "r").add(stem("cao") + "coes");
  if (ends("mentos")) forms.add(stem("mentos") + "r");
  else if (ends("mento")) forms.add(stem("mento") + "r");
  if (/[aei]r$/.test(norm) && norm.length > 4) {
    forms.add(stem("r") + "cao");
    if (norm.endsWith("ar")) forms.add(stem("r") + "mento");
    if (norm.endsWith("er")) forms.add(stem("er") + "imento");
  }
  if (ends("ais")) forms.add(stem("ais") + "al");
  else if (ends("eis")) forms.add(stem("eis") + "el");
  else if (ends("oes") || ends("aes")) forms.add(stem("oes") + "ao");
  else if (ends("ns")) forms.add(stem("ns") + "m");
  else if (/[rz]es$/.test(norm) && norm.length > 5) forms.add(stem("es"));
  else if (ends("s") && !norm.endsWith("ss")) forms.add(stem("s"));
  else if (ends("al")) forms.add(stem("al") + "ais");
  else if (ends("el")) forms.add(stem("el") + "eis");
  else if (ends("ao")) forms.add(stem("ao") + "oes");
  else if (/[aeiou]$/.test(norm) && norm.length > 3) forms.add(norm + "s");
  forms.delete(norm);
  return [...forms];
}

/**
 * Splits a query into concepts: the longest run of words that is a synonym term (stop words
 * included: "história da empresa"), else each word that is not a stop word. A query made only of stop
 * words keeps them all ("quem somos" is still searched).
 */
export function concepts(query: string, synonyms: readonly SynonymEntry[]): Concept[] {
  const all = words(query.slice(0, MAX_QUERY_LENGTH)).filter((word) => word.norm.length > 1 || /\d/.test(word.norm));
  const byTerm = new Map<string, SynonymEntry[]>();
  let longest = 1;
  for (const entry of synonyms)
    for (const term of entry.terms) {
      const list = byTerm.get(term);
      if (list) list.push(entry);
      else byTerm.set(term, [entry]);
      longest = Math.max(longest, term.split(" ").length);
    }
  const meaningful = all.filter((word) => !STOP_WORDS.has(word.norm));
  const keep = meaningful.length > 0 ? (word: Word) => !STOP_WORDS.has(word.norm) : () => true;
  const found: Concept[] = [];
  for (let start = 0; start < all.length;) {
    let matched = 0;
    for (let size = Math.min(longest, all.length - start); size >= 1 && !matched; size--) {
      const span = all.slice(start, start + size);
      const entries = byTerm.get(span.map((word) => word.norm).join(" "));
      // A synonym term that is a lone stop word ("ai" in "ai sim") counts only where stop words do.
      if (!entries || (size === 1 && !keep(span[0]!))) continue;
      const typedWords = span.filter(keep);
      const spellings: Spelling[] = [];
      const ownText = (typedWords.length ? typedWords : span).map((word) => word.norm).join(" ");
      const acronym = size === 1 && ACRONYM.test(span[0]!.typed);
      spellings.push({ text: ownText, kind: acronym ? "literal" : "typed" });
      for (const entry of entries)
        for (const pageWords of entry.pageWords) spellings.push({ text: pageWords, kind: acronym ? "acronym" : "synonym" });
      found.push({ typed: span.map((word) => word.typed).join(" "), spellings: unique(spellings) });
      matched = size;
    }
    if (matched) {
      start += matched;
      continue;
    }
    const word = all[start]!;
    start += 1;
    if (!keep(word)) continue;
    const spellings: Spelling[] = [{ text: word.norm, kind: "typed" }];
    for (const form of wordForms(word.norm)) spellings.push({ text: form, kind: "form" });
    found.push({ typed: word.typed, spellings });
  }
  return found.slice(0, MAX_CONCEPTS);
}

function unique(spellings: Spelling[]): Spelling[] {
  const seen = new Set<string>();
  return spellings.filter((spelling) => !seen.has(spelling.text) && seen.add(spelling.text));
}

/**
 * Optimal string alignment distance (Levenshtein plus the swap of two neighbours), or `max + 1`
 * as soon as it must exceed `max` (the rows are cut short on the way).
 */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let before = new Array<number>(b.length + 1).fill(0);
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) value = Math.min(value, before[j - 2]! + 1);
      current.push(value);
      rowMin = Math.min(rowMin, value);
    }
    if (rowMin > max) return max + 1;
    [before, previous] = [previous, current];
  }
  return previous[b.length]!;
}

/** A reader's vocabulary: each normalised word of the pages they may open, its spelling and how common it is (0–1]. */
export interface Vocabulary {
  words: Map<string, { display: string; count: number }>;
}

/** The terms of a reader's bundles merged; a file of the wrong shape counts as empty. */
export function mergeTerms(files: readonly (TermsFile | null)[]): Terms {
  const terms: Terms = { pages: 0, synonyms: [], vocabulary: { words: new Map() } };
  for (const file of files) {
    if (!file || typeof file !== "object") continue;
    terms.pages += typeof file.paginas === "number" && Number.isFinite(file.paginas) ? Math.max(0, file.paginas) : 0;
    for (const pair of Array.isArray(file.sinonimos) ? file.sinonimos : []) {
      const [from, to] = Array.isArray(pair) ? pair : [];
      if (!Array.isArray(from) || !Array.isArray(to)) continue;
      terms.synonyms.push({ terms: from.map(String).map(normalizePhrase), pageWords: to.map(String).map(normalizePhrase) });
    }
    const list = typeof file.palavras === "string" ? file.palavras.split(" ").filter(Boolean) : [];
    for (const [rank, display] of list.entries()) {
      const norm = normalizeForSearch(display);
      const count = 1 - rank / (list.length + 1);
      const known = terms.vocabulary.words.get(norm);
      if (!known || count > known.count) terms.vocabulary.words.set(norm, { display, count });
    }
  }
  return terms;
}

/** How far a word may be from the word it is corrected to: one letter, two for long words. */
export function allowedDistance(norm: string): number {
  return norm.length >= 9 ? 2 : norm.length >= MIN_CORRECTED_LENGTH ? 1 : 0;
}

/**
 * The reader's own words closest to `norm` (nearest first, then the most common), at most `limit`;
 * `max` defaults to the typo allowance. The word itself never comes back.
 */
export function nearestWords(norm: string, vocabulary: Vocabulary, limit: number, max = allowedDistance(norm)): string[] {
  if (max === 0) return [];
  const found: { norm: string; distance: number; count: number }[] = [];
  for (const [candidate, { count }] of vocabulary.words) {
    if (candidate === norm) continue;
    const distance = editDistance(norm, candidate, max);
    if (distance <= max) found.push({ norm: candidate, distance, count });
  }
  found.sort((a, b) => a.distance - b.distance || b.count - a.count || a.norm.localeCompare(b.norm));
  return found.slice(0, limit).map((item) => item.norm);
}

/** What the search engine gives back for one text (Pagefind's result list, reduced to what ranking needs). */
export interface EngineResult<R> {
  id: string;
  score: number;
  result: R;
}

export interface Engine<R> {
  /**
   * Pagefind's search: every word of `text` on the page, the last one also as a prefix, and — when
   * nothing matches — pages with similar words. A text in double quotes matches only pages that
   * have its words, in that order, by their stems.
   */
  search(text: string): Promise<EngineResult<R>[]>;
  /** The reader's page count and synonyms (from the bundles the gate serves them). */
  terms(): Promise<Terms>;
  /** The words of the reader's pages: fetched the first time a word matches nothing (most searches never need them). */
  vocabulary(): Promise<Vocabulary>;
}

export interface RankedResult<R> {
  id: string;
  score: number;
  /** The engine result to show (its excerpt highlights the spelling that found the page). */
  result: R;
}

export interface Answer<R> {
  results: RankedResult<R>[];
  /** The query with each word that matched nothing replaced by the reader's nearest word ("Você quis dizer …?"). */
  correction: string | null;
  /** When nothing matched: the reader's words nearest to what was typed. */
  suggestions: string[];
}

/** The bonus of a page that has every concept of the query, and of one that has the query's words in a row. */
export const ALL_CONCEPTS_BONUS = 0.5;
export const PHRASE_BONUS = 0.5;

type PageScores<R> = Map<string, { score: number; result: R }>;

/** Words of the vocabulary that start with `norm` (a word still being typed), most common first. */
export function completions(norm: string, vocabulary: Vocabulary, limit: number): string[] {
  if (norm.length < 3) return [];
  return [...vocabulary.words]
    .filter(([candidate]) => candidate.length > norm.length && candidate.startsWith(norm))
    .sort((a, b) => b[1].count - a[1].count || a[0].localeCompare(b[0]))
    .slice(0, limit)
    .map(([candidate]) => candidate);
}

/** `text` with each word that is a key of `fixes` replaced by its value, the rest kept as typed. */
export function replaceWords(text: string, fixes: ReadonlyMap<string, string>): string {
  const clean = text.replace(/\p{Cf}/gu, "");
  return clean.replace(WORD, (word) => fixes.get(word) ?? word).trim();
}

/** Runs a query the way people type it; see the file's comment. */
export async function runQuery<R>(query: string, engine: Engine<R>): Promise<Answer<R>> {
  const terms = await engine.terms();
  const list = concepts(query, terms.synonyms);
  if (!list.length) return { results: [], correction: null, suggestions: [] };
  const cache = new Map<string, Promise<EngineResult<R>[]>>();
  const search = (text: string) => {
    let found = cache.get(text);
    if (!found) cache.set(text, (found = engine.search(text)));
    return found;
  };
  const perConcept = await Promise.all(list.map((concept) => scoreConcept(concept.spellings, search)));

  // A word that is on none of the reader's pages: their nearest word (a typo) or the words it begins (still typing).
  const fixes = new Map<string, string>();
  for (const [index, concept] of list.entries()) {
    if (perConcept[index]!.size > 0) continue;
    const vocabulary = await engine.vocabulary();
    const typedWords = words(concept.typed);
    const options = typedWords.map((word) => {
      if (STOP_WORDS.has(word.norm)) return [];
      const near = nearestWords(word.norm, vocabulary, 2);
      return near.length ? near : completions(word.norm, vocabulary, 2);
    });
    if (options.every((candidates) => candidates.length === 0)) continue;
    const first = typedWords.map((word, at) => options[at]![0] ?? word.norm);
    const spellings: Spelling[] = [{ text: first.join(" "), kind: "correction" }];
    for (const [at, candidates] of options.entries())
      for (const candidate of candidates.slice(1))
        spellings.push({ text: first.map((word, k) => (k === at ? candidate : word)).join(" "), kind: "correction" });
    for (const spelling of [...spellings])
      if (!spelling.text.includes(" ")) for (const text of wordForms(spelling.text)) spellings.push({ text, kind: "correction" });
    perConcept[index] = await scoreConcept(unique(spellings), search);
    if (perConcept[index]!.size > 0)
      for (const [at, word] of typedWords.entries()) {
        const best = options[at]![0];
        if (best) fixes.set(word.typed, vocabulary.words.get(best)!.display);
      }
  }
  const correction = fixes.size ? replaceWords(query.slice(0, MAX_QUERY_LENGTH), fixes) : null;

  const pages = Math.max(1, terms.pages, ...perConcept.map((scores) => scores.size));
  const total = new Map<string, { score: number; result: R; best: number; concepts: number }>();
  for (const scores of perConcept) {
    if (scores.size === 0) continue;
    const rarity = Math.log(1 + pages / scores.size);
    for (const [id, { score, result }] of scores) {
      const gained = rarity * score;
      const known = total.get(id);
      if (!known) total.set(id, { score: gained, result, best: gained, concepts: 1 });
      else {
        known.score += gained;
        known.concepts += 1;
        if (gained > known.best) [known.result, known.best] = [result, gained];
      }
    }
  }
  const matchedConcepts = perConcept.filter((scores) => scores.size > 0).length;
  if (matchedConcepts > 1) {
    for (const page of total.values()) if (page.concepts === matchedConcepts) page.score += ALL_CONCEPTS_BONUS;
    for (const id of await phrasePages(query, list, search)) {
      const page = total.get(id);
      if (page) page.score += PHRASE_BONUS;
    }
  }
  const results = [...total]
    .map(([id, { score, result }]) => ({ id, score, result }))
    .sort((a, b) => b.score - a.score || a.id.localeCompare(b.id));
  const suggestions: string[] = [];
  if (!results.length) {
    const vocabulary = await engine.vocabulary();
    for (const concept of list)
      for (const word of words(concept.typed))
        for (const near of nearestWords(word.norm, vocabulary, 3, Math.max(2, allowedDistance(word.norm) + 1))) {
          const display = vocabulary.words.get(near)!.display;
          if (!suggestions.includes(display)) suggestions.push(display);
        }
  }
  return { results, correction: results.length ? correction : null, suggestions: suggestions.slice(0, 5) };
}

/**
 * Pages with the query's words in a row: the query as typed, and with a synonym's words in place of
 * the term ("equipe de metodologia" → "time de metodologia"), at most 4 phrases.
 */
async function phrasePages<R>(query: string, list: readonly Concept[], search: (text: string) => Promise<EngineResult<R>[]>) {
  const typed = normalizePhrase(query);
  const phrases = new Set([typed]);
  for (const concept of list) {
    const term = normalizePhrase(concept.typed);
    const expansions = concept.spellings.filter((spelling) => spelling.kind === "synonym" || spelling.kind === "acronym");
    if (!expansions.length || !typed.includes(term)) continue;
    for (const spelling of expansions) if (phrases.size < 4) phrases.add(typed.replace(term, spelling.text));
  }
  const found = await Promise.all([...phrases].filter((phrase) => phrase.includes(" ")).map((phrase) => search(`"${phrase}"`)));
  return new Set(found.flat().map((item) => item.id));
}

/**
 * A concept's pages: for each spelling, the pages that really have it (the quoted search: Pagefind's
 * unquoted search also returns pages with merely similar words), scored by the unquoted search and
 * normalised to the best of them; each page keeps its best spelling, weighted by kind.
 */
async function scoreConcept<R>(
  spellings: readonly Spelling[],
  search: (text: string) => Promise<EngineResult<R>[]>,
): Promise<PageScores<R>> {
  // The ranked search only for spellings that exist: most forms and corrections tried match nothing.
  const found = await Promise.all(
    spellings.map(async (spelling) => {
      const exact = await search(`"${spelling.text}"`);
      return [exact, exact.length ? await search(spelling.text) : []] as const;
    }),
  );
  const scores: PageScores<R> = new Map();
  for (const [index, [exact, ranked]] of found.entries()) {
    if (!exact.length) continue;
    const ids = new Set(exact.map((item) => item.id));
    const kept = new Map(ranked.filter((item) => ids.has(item.id)).map((item) => [item.id, item]));
    const top = Math.max(0, ...[...kept.values()].map((item) => item.score));
    const weight = WEIGHTS[spellings[index]!.kind];
    for (const item of exact) {
      const shown = kept.get(item.id);
      // A page only the quoted search found (its words apart from the prefix rule) counts half.
      const score = weight * (shown && top > 0 ? shown.score / top : 0.5);
      const known = scores.get(item.id);
      if (!known || score > known.score) scores.set(item.id, { score, result: shown?.result ?? item.result });
    }
  }
  return scores;
}
