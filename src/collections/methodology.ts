import { defineCollection } from "astro:content";
import { aiToolsPageSchema } from "../schemas/ai-tools";
import { landingSchema } from "../schemas/landing";
import { methodologyHomeSchema } from "../schemas/methodology-home";
import { pillarSchema, raciSchema, roleCardSchema } from "../schemas/pillars";
import { playbookSchema } from "../schemas/playbook";
import { caseStudySchema, stageSchema, toolDescriptionSchema, toolSchema } from "../schemas/stages";
import { digitalToolSchema, templateSchema } from "../schemas/templates";
import { yamlLoader } from "./yaml-loader";

/** Collections of the methodology pages (landing, 5 Ps, stages, templates, playbook, AI tools). */
export const methodologyCollections = {
  landing: defineCollection({ loader: yamlLoader("content/landing.yaml"), schema: landingSchema }),
  methodologyHome: defineCollection({ loader: yamlLoader("content/home-metodologia.yaml"), schema: methodologyHomeSchema }),
  pillars: defineCollection({ loader: yamlLoader("content/pillars.yaml"), schema: pillarSchema }),
  roleCards: defineCollection({ loader: yamlLoader("content/role-cards.yaml"), schema: roleCardSchema }),
  raci: defineCollection({ loader: yamlLoader("content/raci.yaml"), schema: raciSchema }),
  stages: defineCollection({ loader: yamlLoader("content/stages.yaml"), schema: stageSchema }),
  stageAiTools: defineCollection({ loader: yamlLoader("content/stage-ai-tools.yaml"), schema: toolSchema }),
  recommendedTools: defineCollection({ loader: yamlLoader("content/recommended-tools.yaml"), schema: toolSchema }),
  toolDescriptions: defineCollection({ loader: yamlLoader("content/tool-descriptions.yaml"), schema: toolDescriptionSchema }),
  caseStudy: defineCollection({ loader: yamlLoader("content/case-study.yaml"), schema: caseStudySchema }),
  templates: defineCollection({ loader: yamlLoader("content/templates.yaml"), schema: templateSchema }),
  digitalTools: defineCollection({ loader: yamlLoader("content/digital-tools.yaml"), schema: digitalToolSchema }),
  playbook: defineCollection({ loader: yamlLoader("content/playbook.yaml"), schema: playbookSchema }),
  aiTools: defineCollection({ loader: yamlLoader("content/ai-tools.yaml"), schema: aiToolsPageSchema }),
};
