import { describe, expect, it } from "vitest";
import { searchableHtml } from "../../../src/lib/search/indexed-html";
import { synonymsFor, termsFor, vocabularyOf } from "../../../src/lib/search/terms";

describe("a bundle's words (vocabulario)", () => {
  it("keeps words of 4+ letters once, in their most common spelling, most frequent first", () => {
    const words = vocabularyOf(["O Glossário e o glossário do MVP", "glossário, Backlog e backlog; 2025 API"]).split(" ");
    expect(words).toEqual(["glossário", "backlog"]);
  });
});

describe("a bundle's synonyms", () => {
  const entries = [
    { termos: ["ChatGPT", "LLM"], nas_paginas: ["assistente conversacional"] },
    { termos: ["OKR"], nas_paginas: ["objetivos e resultados-chave"] },
    { termos: ["dorsal", "plano de IA"], nas_paginas: ["Comitê de IA"] },
  ];
  const open = "Ferramentas: assistente conversacional e objetivos e resultados-chave";
  const restricted = "Comitê de IA: espinha dorsal central";

  it("carries only entries whose page words are on the bundle's pages", () => {
    expect(synonymsFor(entries, [open], [open, restricted])).toEqual([
      [["ChatGPT", "LLM"], ["assistente conversacional"]],
      [["OKR"], ["objetivos e resultados-chave"]],
    ]);
  });

  it("leaves out a term that is a word of another page but not of this bundle", () => {
    const entriesWithLeak = [{ termos: ["dorsal", "LLM"], nas_paginas: ["assistente conversacional"] }];
    expect(synonymsFor(entriesWithLeak, [open], [open, restricted])).toEqual([[["LLM"], ["assistente conversacional"]]]);
    expect(synonymsFor(entries, [restricted], [open, restricted])).toEqual([[["dorsal", "plano de IA"], ["Comitê de IA"]]]);
  });

  it("an empty bundle carries nothing", () => {
    expect(termsFor(entries, [], [open, restricted])).toEqual({ terms: { paginas: 0, sinonimos: [] }, vocabulary: { palavras: "" } });
  });
});

describe("the HTML the index reads", () => {
  it("keeps blocks every signed-in reader sees, drops visitor and per-page blocks (nested too), opens index-only templates", () => {
    const html =
      "<main>Texto<!--b1:if:anon-->Entrar<!--b1:fi--><!--b1:if:user-->Leitor<!--b1:if:page:/comite-ia-->Comitê secreto<!--b1:fi--><!--b1:fi-->" +
      "<!--b1:if:page:/comite-ia-->Espinha dorsal<!--b1:fi--><template data-search-only><p>Fase 2</p></template></main>";
    expect(searchableHtml(html)).toBe("<main>TextoLeitor<div data-search-only><p>Fase 2</p></div></main>");
  });
});
