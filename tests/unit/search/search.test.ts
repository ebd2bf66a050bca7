import { describe, expect, it } from "vitest";
import { searchFaq, searchGlossary } from "../../../src/lib/search/text";

describe("FAQ and glossary search", () => {
  const faq = [
    { question: "O que é a Metodologia B1?", answer: "Oito etapas." },
    { question: "Quando usar o Fast Track?", answer: "Para validar rápido com IA." },
  ];
  const terms = [
    { term: "MVP", definition: "Produto Mínimo Viável", context: "Etapa 5" },
    { term: "NPS", definition: "Net Promoter Score", context: "Coletado na Sustentação" },
  ];

  it("searches question and answer, case- and accent-insensitively", () => {
    expect(searchFaq(faq, "metodologia")).toHaveLength(1);
    expect(searchFaq(faq, "RÁPIDO")).toHaveLength(1);
    expect(searchFaq(faq, "oito")).toHaveLength(1);
    expect(searchFaq(faq, "nada disso")).toEqual([]);
    expect(searchFaq(faq, "")).toHaveLength(2);
  });

  it("searches term, definition and context", () => {
    expect(searchGlossary(terms, "mvp").map((t) => t.term)).toEqual(["MVP"]);
    expect(searchGlossary(terms, "minimo").map((t) => t.term)).toEqual(["MVP"]);
    expect(searchGlossary(terms, "sustentacao").map((t) => t.term)).toEqual(["NPS"]);
    expect(searchGlossary(terms, "xyz")).toEqual([]);
  });
});
