import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { readContent } from "./helpers";

/**
 * Content corrections checked on the built pages (what the gate serves): duplicated stage tools,
 * missing learn-more texts, FAQ order, the sprint's calls to action, no invented AI First
 * objectives, and the 5 Ps named on /sobre-b1 as the spec's about content does.
 */
function page(route: string): string {
  return fs.readFileSync(`dist/pages${route}/index.html`, "utf8");
}

/** The HTML between an element's opening id and the next `id` given (or the end). */
function between(html: string, fromId: string, toId?: string): string {
  const start = html.indexOf(`id="${fromId}"`);
  expect(start, `id ${fromId}`).toBeGreaterThan(-1);
  const end = toId ? html.indexOf(`id="${toId}"`, start) : html.length;
  return html.slice(start, end);
}

function visibleText(html: string): string {
  return html
    .replace(/<script[\s\S]*?<\/script>/g, " ")
    .replace(/<[^>]+>/g, " ")
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ");
}

const count = (haystack: string, needle: string) => haystack.split(needle).length - 1;

describe("/etapas-processo", () => {
  const html = page("/etapas-processo");

  it("lists each suggested tool once per stage (the stage template is not repeated)", () => {
    const stage6 = between(html, "etapa-documentacao", "etapa-go-live");
    const stage7 = between(html, "etapa-go-live", "etapa-sustentacao");
    expect(count(stage6, '<span class="font-medium">Especificação Funcional</span>')).toBe(1);
    expect(count(stage7, '<span class="font-medium">Plano de Go Live</span>')).toBe(1);
  });

  it("gives every stage template its catalogue description instead of the fallback", () => {
    const templates = readContent("templates.yaml") as { title: string; description: string }[];
    for (const name of [
      "Canvas de Ideação",
      "Relatório de Discovery",
      "Plano de Produto",
      "Checklist de Pré-execução",
      "Canvas de MVP",
      "Plano de Sustentação",
    ]) {
      const description = templates.find((t) => t.title === name)!.description;
      expect(html, name).toContain(description);
    }
    expect(html).not.toContain("Descrição não disponível para esta ferramenta.");
  });
});

describe("/faq", () => {
  it("keeps the order of content/faq.yaml", () => {
    const questions = (readContent("faq.yaml") as { question: string }[]).map((q) => q.question);
    const text = visibleText(page("/faq"));
    const positions = questions.map((q) => text.indexOf(q));
    expect(positions.every((p) => p >= 0)).toBe(true);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    expect(questions[0]).toBe("O que é a Metodologia B1?");
  });
});

describe("AI First pages", () => {
  it("/ai-first-fast-track: each of D1–D5 has its call-to-action", () => {
    const html = page("/ai-first-fast-track");
    const days = (readContent("fast-track.yaml") as { sprint: { days: { cta?: { label: string } }[] } }).sprint.days;
    const ids = ["d1", "d2", "d3", "d4", "d5", "por-que-funciona"];
    for (let i = 0; i < 5; i++) {
      const day = between(html, ids[i]!, ids[i + 1]);
      const label = days[i]!.cta?.label;
      expect(label, ids[i]).toBeTruthy();
      expect(day, ids[i]).toMatch(new RegExp(`<(a|button)\\b[^>]*>(?:(?!</(a|button)>)[\\s\\S])*${label}`));
    }
  });

  it("/metodologia-ai-first has no 'Objetivos' block the spec does not have", () => {
    const text = visibleText(page("/metodologia-ai-first"));
    expect(text).not.toMatch(/\bObjetivos\b/);
    expect(text).not.toContain("Validar o problema e a solução com o cliente em até dois dias");
    expect(text).toContain("Fluxo AI First em 2 Dias");
  });
});

describe("/sobre-b1", () => {
  it("names the 5 Ps: Propósito, Problemas, Pessoas, Processo, Performance", () => {
    const text = visibleText(page("/sobre-b1"));
    expect(text).toContain("5 Ps");
    for (const name of ["Propósito", "Problemas", "Pessoas", "Processo", "Performance"]) expect(text).toContain(name);
  });
});
