import { describe, expect, it } from "vitest";
import fc from "fast-check";
import {
  MAX_CONCEPTS,
  concepts,
  editDistance,
  mergeTerms,
  nearestWords,
  runQuery,
  wordForms,
  type Engine,
  type EngineResult,
  type SynonymEntry,
  type TermsFile,
} from "../../../src/lib/search/query";
import { normalizeForSearch } from "../../../src/lib/search/text";

/**
 * A Pagefind stand-in over a few pages: the quoted search matches pages with the words in a row
 * (normalised, a trailing "s" or "es" ignored like a stemmer would), the unquoted one every page with
 * each word, scored by how often — and, like Pagefind, returns pages with merely similar words
 * (any word sharing the first two letters) when nothing matches, with low scores.
 */
function fakeEngine(pages: Record<string, string>, file: Partial<TermsFile> = {}): Engine<string> & { searches: string[] } {
  const stem = (word: string) => word.replace(/(es|s)$/, "");
  const tokens = (text: string) =>
    normalizeForSearch(text)
      .split(/[^a-z0-9-]+/)
      .filter(Boolean)
      .map(stem);
  const searches: string[] = [];
  const terms = mergeTerms([{ paginas: Object.keys(pages).length, sinonimos: [], palavras: "", ...file }]);
  return {
    searches,
    async search(text) {
      searches.push(text);
      const quoted = /^".*"$/.test(text);
      const wanted = tokens(text);
      const results: EngineResult<string>[] = [];
      for (const [id, body] of Object.entries(pages)) {
        const have = tokens(body);
        if (quoted) {
          const at = have.findIndex((_, start) => wanted.every((word, k) => have[start + k] === word));
          if (at !== -1) results.push({ id, score: 1, result: id });
        } else if (wanted.every((word) => have.includes(word)))
          results.push({ id, score: wanted.reduce((sum, word) => sum + have.filter((w) => w === word).length, 0), result: id });
      }
      if (!quoted && !results.length)
        for (const [id, body] of Object.entries(pages))
          if (tokens(body).some((word) => wanted.some((w) => w.slice(0, 2) === word.slice(0, 2))))
            results.push({ id, score: 0.1, result: id });
      return results.sort((a, b) => b.score - a.score);
    },
    terms: async () => ({ ...terms, vocabulary: { words: new Map() } }),
    vocabulary: async () => terms.vocabulary,
  };
}

const PAGES = {
  "/sementezz": "Sementezz programa interno de inovação inscreva seu time squads mentoria",
  "/glossario": "Glossário termos MVP produto mínimo viável wireframe esboço backlog",
  "/ferramentas": "Ferramentas de IA assistente conversacional assistente de código automação de fluxos",
  "/contato": "Fale com o time de metodologia contato mentoria de projetos",
  "/home": "Metodologia B1 time produto etapas",
};
const VOCABULARY =
  "Sementezz programa inovação time squads mentoria glossário termos produto wireframe backlog ferramentas assistente conversacional automação fluxos metodologia contato";

describe("concepts: what a query is about", () => {
  const synonyms: SynonymEntry[] = [
    { terms: ["chatgpt"], pageWords: ["assistente conversacional"] },
    { terms: ["historia da empresa"], pageWords: ["quem somos"] },
    { terms: ["ai"], pageWords: ["ia"] },
  ];

  it("leaves out stop and question words, keeps a query made only of them", () => {
    expect(concepts("como inscrever meu time no Sementezz?", []).map((c) => c.typed)).toEqual(["inscrever", "time", "Sementezz"]);
    expect(concepts("quem somos", []).map((c) => c.typed)).toEqual(["quem", "somos"]);
  });

  it("takes the longest synonym term, stop words inside it included, and adds the pages' words", () => {
    const found = concepts("História da empresa", synonyms);
    expect(found).toHaveLength(1);
    expect(found[0]!.spellings.map((s) => [s.text, s.kind])).toEqual([
      ["historia empresa", "typed"],
      ["quem somos", "synonym"],
    ]);
    expect(concepts("ferramentas AI", synonyms).map((c) => c.spellings.map((s) => s.text))).toEqual([
      ["ferramentas", "ferramenta"],
      ["ai", "ia"],
    ]);
  });

  it("adds the forms the stemmer misses: -ção/-r, -mento/-r, -ais/-al, -ões/-ão", () => {
    expect(wordForms("validacao")).toEqual(expect.arrayContaining(["validar"]));
    expect(wordForms("validar")).toEqual(expect.arrayContaining(["validacao"]));
    expect(wordForms("priorizacoes")).toEqual(expect.arrayContaining(["priorizacao", "priorizar"]));
    expect(wordForms("graduais")).toEqual(["gradual"]);
    expect(wordForms("gradual")).toEqual(["graduais"]);
    expect(wordForms("planejamento")).toEqual(expect.arrayContaining(["planejar"]));
    expect(wordForms("reunioes")).toEqual(["reuniao"]);
  });

  it("cuts a pasted text to a few concepts, and invisible format characters do not split a word", () => {
    const long = Array.from({ length: 500 }, (_, i) => `palavra${i}`).join(" ");
    expect(concepts(long, []).length).toBeLessThanOrEqual(MAX_CONCEPTS);
    expect(concepts("glos\u202Esario\u200D", []).map((c) => c.typed)).toEqual(["glossario"]);
  });
});

describe("edit distance and the reader's nearest words", () => {
  it("counts insertions, deletions, substitutions and swaps of neighbours as one", () => {
    expect(editDistance("glosario", "glossario", 2)).toBe(1);
    expect(editDistance("whitelable", "whitelabel", 2)).toBe(1);
    expect(editDistance("backlgo", "backlog", 2)).toBe(1);
    expect(editDistance("abc", "xyz", 1)).toBe(2);
  });

  it("is symmetric and never above the plain Levenshtein bound (property)", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 12 }), fc.string({ maxLength: 12 }), (a, b) => {
        const d = editDistance(a, b, 20);
        expect(d).toBe(editDistance(b, a, 20));
        expect(d).toBeLessThanOrEqual(Math.max(a.length, b.length));
        expect(d === 0).toBe(a === b);
      }),
    );
  });

  it("corrects one letter in words of 4+ letters, never to the word itself", () => {
    const { vocabulary } = mergeTerms([{ paginas: 1, sinonimos: [], palavras: "glossário backlog mvp" }]);
    expect(nearestWords("glosario", vocabulary, 2)).toEqual(["glossario"]);
    expect(nearestWords("glossario", vocabulary, 2)).toEqual([]);
    expect(nearestWords("mvo", vocabulary, 2)).toEqual([]);
  });
});

describe("mergeTerms: what the served files may hold", () => {
  it("ignores files and entries of the wrong shape, prototype keys included", () => {
    const hostile = JSON.parse(
      '{"__proto__":{"polluted":true},"paginas":"x","sinonimos":[["a"],[null,1],{"constructor":1}],"palavras":42}',
    ) as TermsFile;
    const terms = mergeTerms([
      null,
      hostile,
      { paginas: 2, sinonimos: [[["OKR"], ["objetivos e resultados-chave"]]] },
      { palavras: "termo" },
    ]);
    expect(terms.pages).toBe(2);
    expect(terms.synonyms).toEqual([{ terms: ["okr"], pageWords: ["objetivos e resultados-chave"] }]);
    expect([...terms.vocabulary.words.keys()]).toEqual(["termo"]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe("runQuery: queries as people type them", () => {
  it("answers a question whose every word is on no single page (the words that matter decide)", async () => {
    const engine = fakeEngine(PAGES, { palavras: VOCABULARY });
    const answer = await runQuery("como inscrever meu time no sementezz", engine);
    expect(answer.results[0]?.id).toBe("/sementezz");
    expect(answer.correction).toBeNull();
  });

  it("finds a synonym's pages and ranks them first", async () => {
    const engine = fakeEngine(PAGES, { sinonimos: [[["chatgpt"], ["assistente conversacional"]]], palavras: VOCABULARY });
    const answer = await runQuery("chatgpt", engine);
    expect(answer.results.map((r) => r.id)).toEqual(["/ferramentas"]);
  });

  it("does not count pages Pagefind returns for merely similar words (the quoted search decides)", async () => {
    const engine = fakeEngine(PAGES, { palavras: VOCABULARY });
    const answer = await runQuery("xyzkwq", engine);
    expect(answer.results).toEqual([]);
    expect(answer.correction).toBeNull();
  });

  it("corrects a one-letter typo against the reader's words and says so", async () => {
    const engine = fakeEngine(PAGES, { palavras: VOCABULARY });
    const answer = await runQuery("semetezz", engine);
    expect(answer.results[0]?.id).toBe("/sementezz");
    expect(answer.correction).toBe("Sementezz");
    const glossary = await runQuery("glosario de termos", engine);
    expect(glossary.results[0]?.id).toBe("/glossario");
    expect(glossary.correction).toBe("glossário de termos");
  });

  it("never corrects to a word the reader's own vocabulary lacks", async () => {
    // /glossario is on the engine (as another reader's bundle would be) but its words are not in this reader's file.
    const engine = fakeEngine(PAGES, { palavras: "Sementezz programa time" });
    const answer = await runQuery("wirefame", engine);
    expect(answer.correction).toBeNull();
    expect(answer.results).toEqual([]);
  });

  it("offers the nearest terms when nothing matches", async () => {
    const engine = fakeEngine(PAGES, { palavras: VOCABULARY });
    const answer = await runQuery("mentoriax programaz", engine);
    expect(answer.results.length).toBeGreaterThan(0);
    const none = await runQuery("bakclgo", fakeEngine(PAGES, { palavras: "backlog" }));
    expect(none.results).toEqual([]);
    expect(none.suggestions).toEqual(["backlog"]);
  });

  it("runs the ranked search only for spellings that exist (a form or word that matches nothing costs one search)", async () => {
    const engine = fakeEngine(PAGES, { palavras: VOCABULARY });
    await runQuery("xyzkwq", engine);
    expect(engine.searches.filter((text) => !text.startsWith('"'))).toEqual([]);
    await runQuery("validação de squads", engine);
    expect(engine.searches).not.toContain("validar");
    expect(engine.searches).toContain("squads");
  });

  it("searches a long paste with a bounded number of engine calls", async () => {
    const engine = fakeEngine(PAGES, { palavras: VOCABULARY });
    await runQuery(Array.from({ length: 300 }, (_, i) => `termo${i}`).join(" "), engine);
    expect(engine.searches.length).toBeLessThan(200);
  });
});

describe("acronyms typed in capitals", () => {
  it("rank the acronym's words above a word that shares its letters ('DoR' is not 'dor')", async () => {
    const pages = { "/5ps": "as dores dos usuários e as dores do time", "/etapas": "Definition of Ready antes do desenvolvimento" };
    const engine = fakeEngine(pages, { sinonimos: [[["DoR"], ["Definition of Ready"]]], palavras: "dores definition ready" });
    expect((await runQuery("DoR", engine)).results[0]?.id).toBe("/etapas");
    // Typed in lower case it is the word as much as the acronym: both pages come back.
    expect((await runQuery("dor", engine)).results.map((r) => r.id).sort()).toEqual(["/5ps", "/etapas"]);
  });
});
