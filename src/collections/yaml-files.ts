import { aboutSchema } from "../schemas/about";
import { aiToolsPageSchema } from "../schemas/ai-tools";
import { committeeSchema } from "../schemas/committee";
import { contactSchema } from "../schemas/contact";
import { faqSchema } from "../schemas/faq";
import { fastTrackSchema } from "../schemas/fast-track";
import { glossaryTermSchema } from "../schemas/glossary";
import { landingSchema } from "../schemas/landing";
import { methodologyHomeSchema } from "../schemas/methodology-home";
import { readingDeclarationSchema } from "../schemas/reading";
import { pillarSchema, raciSchema, roleCardSchema } from "../schemas/pillars";
import { playbookSchema } from "../schemas/playbook";
import { searchSynonymSchema } from "../schemas/search-synonyms";
import { sementezzSchema } from "../schemas/sementezz";
import { caseStudySchema, stageSchema, toolDescriptionSchema, toolSchema } from "../schemas/stages";
import { digitalToolSchema, templateSchema } from "../schemas/templates";
import { trailPhaseSchema } from "../schemas/trail";

/** Pages that list the templates and tools (a file they point to is served to whoever may open one of these). */
const TEMPLATE_PAGES = ["/templates", "/etapas-processo"] as const;
const STAGE_PAGES = ["/etapas-processo"] as const;

/**
 * Every YAML content file, its schema, the page that shows it (for /novidades; null: none) and, for
 * entries that may offer files, the pages that list them (downloads): the
 * content collections (src/content.config.ts) and `npm run content:check` both read this table,
 * so a new file is registered once.
 */
export const YAML_FILES = {
  landing: { file: "content/landing.yaml", schema: landingSchema, page: "/" },
  methodologyHome: { file: "content/home-metodologia.yaml", schema: methodologyHomeSchema, page: "/home-metodologia" },
  pillars: { file: "content/pillars.yaml", schema: pillarSchema, page: "/5ps" },
  roleCards: { file: "content/role-cards.yaml", schema: roleCardSchema, page: "/5ps" },
  raci: { file: "content/raci.yaml", schema: raciSchema, page: "/5ps" },
  stageAiTools: { file: "content/stage-ai-tools.yaml", schema: toolSchema, page: "/etapas-processo", pages: STAGE_PAGES },
  recommendedTools: { file: "content/recommended-tools.yaml", schema: toolSchema, page: "/etapas-processo", pages: STAGE_PAGES },
  toolDescriptions: { file: "content/tool-descriptions.yaml", schema: toolDescriptionSchema, page: "/etapas-processo" },
  caseStudy: { file: "content/case-study.yaml", schema: caseStudySchema, page: "/etapas-processo" },
  templates: { file: "content/templates.yaml", schema: templateSchema, page: "/templates", pages: TEMPLATE_PAGES },
  digitalTools: { file: "content/digital-tools.yaml", schema: digitalToolSchema, page: "/templates" },
  playbook: { file: "content/playbook.yaml", schema: playbookSchema, page: "/playbook-produtos" },
  aiTools: { file: "content/ai-tools.yaml", schema: aiToolsPageSchema, page: "/ferramentas-ia" },
  trailPhases: { file: "content/trail.yaml", schema: trailPhaseSchema, page: "/trilha-interativa" },
  faq: { file: "content/faq.yaml", schema: faqSchema, page: "/faq" },
  glossary: { file: "content/glossary.yaml", schema: glossaryTermSchema, page: "/glossario" },
  contact: { file: "content/contact.yaml", schema: contactSchema, page: "/contato" },
  sementezz: { file: "content/sementezz.yaml", schema: sementezzSchema, page: "/sementezz" },
  fastTrack: { file: "content/fast-track.yaml", schema: fastTrackSchema, page: "/ai-first-fast-track" },
  committee: { file: "content/committee.yaml", schema: committeeSchema, page: "/comite-ia" },
  reading: { file: "content/leitura-obrigatoria.yaml", schema: readingDeclarationSchema, page: null },
  searchSynonyms: { file: "content/busca/sinonimos.yaml", schema: searchSynonymSchema, page: null },
} as const;

/** Collections written as MDX files: structured fields in the frontmatter, prose in the body. */
export const MDX_FOLDERS = {
  stages: { dir: "content/etapas", schema: stageSchema, page: "/etapas-processo" },
  about: { dir: "content/sobre", schema: aboutSchema, page: "/sobre-b1" },
} as const;
