import { aboutSchema } from "../schemas/about";
import { aiToolsPageSchema } from "../schemas/ai-tools";
import { committeeSchema } from "../schemas/committee";
import { contactSchema } from "../schemas/contact";
import { faqSchema } from "../schemas/faq";
import { fastTrackSchema } from "../schemas/fast-track";
import { glossaryTermSchema } from "../schemas/glossary";
import { landingSchema } from "../schemas/landing";
import { methodologyHomeSchema } from "../schemas/methodology-home";
import { pillarSchema, raciSchema, roleCardSchema } from "../schemas/pillars";
import { playbookSchema } from "../schemas/playbook";
import { sementezzSchema } from "../schemas/sementezz";
import { caseStudySchema, stageSchema, toolDescriptionSchema, toolSchema } from "../schemas/stages";
import { digitalToolSchema, templateSchema } from "../schemas/templates";
import { trailPhaseSchema } from "../schemas/trail";

/** Pages that list the templates and tools (a file they point to is served to whoever may open one of these). */
const TEMPLATE_PAGES = ["/templates", "/etapas-processo"] as const;
const STAGE_PAGES = ["/etapas-processo"] as const;

/**
 * Every YAML content file and its schema: the content collections (src/content.config.ts) and
 * `npm run content:check` both read this table, so a new file is registered once.
 */
export const YAML_FILES = {
  landing: { file: "content/landing.yaml", schema: landingSchema },
  methodologyHome: { file: "content/home-metodologia.yaml", schema: methodologyHomeSchema },
  pillars: { file: "content/pillars.yaml", schema: pillarSchema },
  roleCards: { file: "content/role-cards.yaml", schema: roleCardSchema },
  raci: { file: "content/raci.yaml", schema: raciSchema },
  stageAiTools: { file: "content/stage-ai-tools.yaml", schema: toolSchema, pages: STAGE_PAGES },
  recommendedTools: { file: "content/recommended-tools.yaml", schema: toolSchema, pages: STAGE_PAGES },
  toolDescriptions: { file: "content/tool-descriptions.yaml", schema: toolDescriptionSchema },
  caseStudy: { file: "content/case-study.yaml", schema: caseStudySchema },
  templates: { file: "content/templates.yaml", schema: templateSchema, pages: TEMPLATE_PAGES },
  digitalTools: { file: "content/digital-tools.yaml", schema: digitalToolSchema },
  playbook: { file: "content/playbook.yaml", schema: playbookSchema },
  aiTools: { file: "content/ai-tools.yaml", schema: aiToolsPageSchema },
  trailPhases: { file: "content/trail.yaml", schema: trailPhaseSchema },
  faq: { file: "content/faq.yaml", schema: faqSchema },
  glossary: { file: "content/glossary.yaml", schema: glossaryTermSchema },
  contact: { file: "content/contact.yaml", schema: contactSchema },
  sementezz: { file: "content/sementezz.yaml", schema: sementezzSchema },
  fastTrack: { file: "content/fast-track.yaml", schema: fastTrackSchema },
  committee: { file: "content/committee.yaml", schema: committeeSchema },
} as const;

/** Collections written as MDX files: structured fields in the frontmatter, prose in the body. */
export const MDX_FOLDERS = {
  stages: { dir: "content/etapas", schema: stageSchema, page: "/etapas-processo" },
  about: { dir: "content/sobre", schema: aboutSchema, page: "/sobre-b1" },
} as const;
