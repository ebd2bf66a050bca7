import { describe, expect, it } from "vitest";
import { filterTemplates } from "../../../src/lib/content/templates-filter";

const templates = [
  { title: "Canvas de Ideação", description: "Estrutura o problema", category: "ideacao" },
  { title: "Relatório de Discovery", description: "Consolida entrevistas e CANVAS", category: "discovery" },
  { title: "Plano de Produto", description: "Objetivos e métricas", category: "planejamento" },
];

describe("filterTemplates", () => {
  it("matches the search case-insensitively in title or description", () => {
    expect(filterTemplates(templates, "canvas", "all").map((t) => t.title)).toEqual(["Canvas de Ideação", "Relatório de Discovery"]);
    expect(filterTemplates(templates, "MÉTRICAS", "all").map((t) => t.title)).toEqual(["Plano de Produto"]);
  });

  it("ignores accents like the FAQ and glossary searches", () => {
    expect(filterTemplates(templates, "ideacao", "all").map((t) => t.title)).toEqual(["Canvas de Ideação"]);
    expect(filterTemplates(templates, "metricas", "all").map((t) => t.title)).toEqual(["Plano de Produto"]);
  });

  it("combines the search with the category (AND)", () => {
    expect(filterTemplates(templates, "canvas", "discovery").map((t) => t.title)).toEqual(["Relatório de Discovery"]);
    expect(filterTemplates(templates, "", "planejamento")).toHaveLength(1);
  });

  it("returns everything for an empty search and 'all', nothing when no template matches", () => {
    expect(filterTemplates(templates, "  ", "all")).toHaveLength(3);
    expect(filterTemplates(templates, "inexistente", "all")).toEqual([]);
    expect(filterTemplates(templates, "canvas", "playbooks")).toEqual([]);
  });

  it("keeps only the templates with a download when asked, combined with the search and category", () => {
    const linked = templates.map((t, index) => ({ ...t, link: index === 1 ? "/arquivos/relatorio.pdf" : "" }));
    expect(filterTemplates(linked, "", "all", true).map((t) => t.title)).toEqual(["Relatório de Discovery"]);
    expect(filterTemplates(linked, "canvas", "ideacao", true)).toEqual([]);
    expect(filterTemplates(linked, "canvas", "all", false)).toHaveLength(2);
  });
});
