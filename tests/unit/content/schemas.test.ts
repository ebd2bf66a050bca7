import { describe, expect, it } from "vitest";
import { z } from "astro/zod";
import { aiToolsPageSchema } from "../../../src/schemas/ai-tools";
import { aboutSchema } from "../../../src/schemas/about";
import { committeeSchema } from "../../../src/schemas/committee";
import { contactSchema } from "../../../src/schemas/contact";
import { faqSchema } from "../../../src/schemas/faq";
import { fastTrackSchema } from "../../../src/schemas/fast-track";
import { GLOSSARY_CATEGORIES, glossaryTermSchema } from "../../../src/schemas/glossary";
import { landingSchema } from "../../../src/schemas/landing";
import { methodologyHomeSchema } from "../../../src/schemas/methodology-home";
import { pillarSchema, raciSchema, roleCardSchema } from "../../../src/schemas/pillars";
import { playbookSchema } from "../../../src/schemas/playbook";
import { sementezzSchema } from "../../../src/schemas/sementezz";
import { caseStudySchema, stageSchema, toolDescriptionSchema, toolSchema } from "../../../src/schemas/stages";
import { TEMPLATE_CATEGORIES, digitalToolSchema, templateSchema } from "../../../src/schemas/templates";
import { trailPhaseSchema } from "../../../src/schemas/trail";
import { CATEGORY_OPTIONS } from "../../../src/lib/content/templates-filter";
import { readContent, readFrontmatters } from "./helpers";

// Like the YAML loader, each list item gets its place in the file.
const list = <S extends z.ZodType>(file: string, schema: S) =>
  z.array(schema).parse((readContent(file) as object[]).map((item, position) => ({ ...item, position }))) as z.infer<S>[];
const one = <S extends z.ZodType>(file: string, schema: S) => schema.parse(readContent(file)) as z.infer<S>;

describe("shipped content matches its schemas and the spec's counts", () => {
  it("methodology: 8 values, 5 pillars, 10 role cards in 5 groups, RACI with 4 letters", () => {
    expect(one("landing.yaml", landingSchema).values).toHaveLength(8);
    one("home-metodologia.yaml", methodologyHomeSchema);
    const pillars = list("pillars.yaml", pillarSchema);
    expect(pillars.map((p) => p.id)).toEqual(["principios", "processos", "papeis", "performance", "pessoas"]);
    const roles = list("role-cards.yaml", roleCardSchema);
    expect(roles).toHaveLength(10);
    expect(new Set(roles.map((r) => r.group)).size).toBe(5);
    expect(one("raci.yaml", raciSchema).letters.map((l) => l.letter)).toEqual(["R", "A", "C", "I"]);
  });

  it("stages: 8 stages, 4 stage-5 AI tools, 18 recommended tools, a case of 8 phases × 3 questions", () => {
    const stages = readFrontmatters("etapas")
      .map((fields) => stageSchema.parse(fields))
      .sort((a, b) => a.number - b.number);
    expect(stages.map((s) => s.title)).toEqual([
      "Ideação",
      "Discovery",
      "Planejamento",
      "Pré-execução",
      "MVP / PoC",
      "Documentação",
      "Go Live",
      "Sustentação",
    ]);
    expect(list("stage-ai-tools.yaml", toolSchema)).toHaveLength(4);
    expect(list("recommended-tools.yaml", toolSchema)).toHaveLength(18);
    const study = one("case-study.yaml", caseStudySchema);
    expect(study.phases).toHaveLength(8);
    expect(study.phases.every((p) => p.questions.length === 3)).toBe(true);
    expect(new Set(study.phases.flatMap((p) => p.questions.map((q) => q.status)))).toEqual(new Set(["positive", "partial", "negative"]));
    const described = new Set(list("tool-descriptions.yaml", toolDescriptionSchema).map((d) => d.id));
    expect(stages.flatMap((s) => s.tools).filter((tool) => !described.has(tool))).toEqual([]);
  });

  it("templates: 44 across all 7 categories, 8 filter options, 4 digital tools, one internal link", () => {
    const templates = list("templates.yaml", templateSchema);
    expect(templates).toHaveLength(44);
    expect(new Set(templates.map((t) => t.category))).toEqual(new Set(TEMPLATE_CATEGORIES));
    expect(CATEGORY_OPTIONS.map((o) => o.value)).toEqual(["all", ...TEMPLATE_CATEGORIES]);
    expect(templates.filter((t) => t.link.startsWith("/")).map((t) => [t.title, t.link])).toEqual([
      ["Playbook de Produtos", "/playbook-produtos"],
    ]);
    expect(new Set(templates.map((t) => t.id)).size).toBe(44);
    expect(list("digital-tools.yaml", digitalToolSchema)).toHaveLength(4);
  });

  it("playbook: 22 guides (6/8/8) and 14 artefacts; AI tools: 6 cards, 5 in the table, 4+5+4 prompt blocks", () => {
    const playbook = one("playbook.yaml", playbookSchema);
    expect(playbook.guides).toHaveLength(22);
    expect(["Fundamentos", "Estratégia", "Execução"].map((s) => playbook.guides.filter((g) => g.section === s).length)).toEqual([6, 8, 8]);
    expect(playbook.artefacts).toHaveLength(14);
    const ai = one("ai-tools.yaml", aiToolsPageSchema);
    expect([ai.cards.length, ai.table.length, ai.prompts.summary.length, ai.prompts.topics.length, ai.prompts.practices.length]).toEqual([
      6, 5, 4, 5, 4,
    ]);
    expect(ai.prompts.summary.map((s) => s.title)).toEqual(["Conceito", "Aplicação", "Impacto", "Eficiência"]);
  });

  it("journey: 8 trail phases × 3 questions × 3 tools, 10 FAQ, 15 terms in 9 categories", () => {
    const phases = list("trail.yaml", trailPhaseSchema);
    expect(phases).toHaveLength(8);
    expect(phases.every((p) => p.questions.length === 3 && p.tools.length === 3 && p.templates.length === 3)).toBe(true);
    expect(list("faq.yaml", faqSchema)).toHaveLength(10);
    const terms = list("glossary.yaml", glossaryTermSchema);
    expect(terms.map((t) => t.term)).toEqual([
      "MVP",
      "RACI",
      "KPI",
      "Discovery",
      "PoC",
      "Sustentação",
      "Stakeholder",
      "Backlog",
      "Sprint",
      "Design Thinking",
      "Canvas",
      "Roadmap",
      "Definition of Done",
      "NPS",
      "Wireframe",
    ]);
    expect(new Set(terms.map((t) => t.category))).toEqual(new Set(GLOSSARY_CATEGORIES));
  });

  it("programme pages: Sementezz 8 steps / 8 criteria / 5 cards / 5 values / 6 links; committee 6 goals, 5 phases, 6 actions", () => {
    const program = one("sementezz.yaml", sementezzSchema);
    expect([
      program.steps.length,
      program.criteria.length,
      program.overview.length,
      program.legacy.length,
      program.footerLinks.length,
    ]).toEqual([8, 8, 5, 5, 6]);
    expect(program.steps.map((s) => s.number)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    const committee = one("committee.yaml", committeeSchema);
    expect(committee.goals).toHaveLength(6);
    expect(committee.schedule.phases.map((p) => p.range)).toEqual(["0-30", "30-60", "60-120", "120-180", "180-360"]);
    expect(committee.actions).toHaveLength(6);
    const track = one("fast-track.yaml", fastTrackSchema);
    expect([track.principles.length, track.twoDays.day1.length, track.twoDays.day2.length, track.sprint.days.length]).toEqual([4, 4, 4, 5]);
    one("contact.yaml", contactSchema);
    expect(readFrontmatters("sobre").map((fields) => aboutSchema.parse(fields))).toHaveLength(1);
  });
});

describe("broken content is refused with a readable message", () => {
  const template = {
    id: "x",
    title: "X",
    description: "Y",
    category: "ideacao",
    tools: ["Miro"],
    format: "Doc",
    stage: "Ideação",
    color: "blue",
    link: "",
  };
  const message = (result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
    result.error!.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("; ");

  it("names a missing field", () => {
    const { title: _title, ...rest } = template;
    expect(message(templateSchema.safeParse(rest))).toMatch(/^title: /);
  });

  it("names an unknown category", () => {
    expect(message(templateSchema.safeParse({ ...template, category: "marketing" }))).toMatch(/^category: /);
  });

  it("rejects an internal link that is not a route of the portal", () => {
    expect(message(templateSchema.safeParse({ ...template, link: "/nao-existe" }))).toContain("link: link inválido");
    expect(templateSchema.safeParse({ ...template, link: "/playbook-produtos" }).success).toBe(true);
    expect(templateSchema.safeParse({ ...template, link: "http://inseguro.example.com" }).success).toBe(false);
  });

  it("rejects an unknown icon and a wrong count", () => {
    const pillar = readContent("pillars.yaml") as Record<string, unknown>[];
    expect(message(pillarSchema.safeParse({ ...pillar[0], icon: "NaoExiste" }))).toContain("icon: ícone desconhecido");
    const stage = readFrontmatters("etapas")[0]!;
    const repeated = stageSchema.safeParse({ ...stage, tools: [...(stage.tools as string[]), stage.template] });
    expect(message(repeated)).toContain("tools: o template da etapa já aparece na lista");
    const playbook = readContent("playbook.yaml") as { guides: unknown[] };
    expect(playbookSchema.safeParse({ ...playbook, guides: playbook.guides.slice(1) }).success).toBe(false);
  });
});

describe("content files", () => {
  it("have no empty (null) fields — e.g. an unquoted comma splitting a value in a flow mapping", async () => {
    const fs = await import("node:fs");
    const nulls: string[] = [];
    const walk = (value: unknown, path: string) => {
      if (value === null) nulls.push(path);
      else if (Array.isArray(value)) value.forEach((item, i) => walk(item, `${path}[${i}]`));
      else if (typeof value === "object") for (const [key, item] of Object.entries(value as object)) walk(item, `${path}.${key}`);
    };
    for (const file of fs.readdirSync("content").filter((f) => f.endsWith(".yaml"))) walk(readContent(file), file);
    expect(nulls).toEqual([]);
  });
});
