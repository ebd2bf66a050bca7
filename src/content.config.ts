import { defineCollection } from "astro:content";
import { glob } from "astro/loaders";
import { z } from "astro/zod";
import { MDX_FOLDERS, YAML_FILES } from "./collections/yaml-files";
import { yamlLoader } from "./collections/yaml-loader";
import { contentPageSchema } from "./schemas/content-page";
import { guideSchema } from "./schemas/guide";

// Schema messages in Portuguese for editors (zod's built-in locale).
z.config(z.locales.pt());

/**
 * An MDX folder's glob loader without its English warning for a folder that is still empty
 * (`content/guias` ships empty): the folder is still watched, so the first file appears in `astro dev`.
 */
function mdxFolder(base: string) {
  const inner = glob({ pattern: "*.mdx", base });
  return {
    ...inner,
    load: (context: Parameters<typeof inner.load>[0]) => {
      const logger = new Proxy(context.logger, {
        get(target, property, receiver) {
          if (property === "warn") return (message: string) => void (/^No files found matching/.test(message) || target.warn(message));
          const value: unknown = Reflect.get(target, property, receiver);
          return typeof value === "function" ? value.bind(target) : value;
        },
      });
      return inner.load({ ...context, logger });
    },
  };
}

function yamlCollection<S extends z.ZodType>({ file, schema }: { file: string; schema: S }) {
  return defineCollection({ loader: yamlLoader(file), schema });
}

/** One collection per YAML file and MDX folder (a test checks none is left out), plus the pages editors write in MDX. */
export const collections = {
  landing: yamlCollection(YAML_FILES.landing),
  methodologyHome: yamlCollection(YAML_FILES.methodologyHome),
  pillars: yamlCollection(YAML_FILES.pillars),
  roleCards: yamlCollection(YAML_FILES.roleCards),
  raci: yamlCollection(YAML_FILES.raci),
  stages: defineCollection({ loader: glob({ pattern: "*.mdx", base: MDX_FOLDERS.stages.dir }), schema: MDX_FOLDERS.stages.schema }),
  stageAiTools: yamlCollection(YAML_FILES.stageAiTools),
  recommendedTools: yamlCollection(YAML_FILES.recommendedTools),
  toolDescriptions: yamlCollection(YAML_FILES.toolDescriptions),
  caseStudy: yamlCollection(YAML_FILES.caseStudy),
  templates: yamlCollection(YAML_FILES.templates),
  digitalTools: yamlCollection(YAML_FILES.digitalTools),
  playbook: yamlCollection(YAML_FILES.playbook),
  aiTools: yamlCollection(YAML_FILES.aiTools),
  trailPhases: yamlCollection(YAML_FILES.trailPhases),
  faq: yamlCollection(YAML_FILES.faq),
  glossary: yamlCollection(YAML_FILES.glossary),
  contact: yamlCollection(YAML_FILES.contact),
  about: defineCollection({ loader: glob({ pattern: "*.mdx", base: MDX_FOLDERS.about.dir }), schema: MDX_FOLDERS.about.schema }),
  sementezz: yamlCollection(YAML_FILES.sementezz),
  fastTrack: yamlCollection(YAML_FILES.fastTrack),
  committee: yamlCollection(YAML_FILES.committee),
  reading: yamlCollection(YAML_FILES.reading),
  searchSynonyms: yamlCollection(YAML_FILES.searchSynonyms),
  guias: defineCollection({ loader: mdxFolder("./content/guias"), schema: guideSchema }),
  paginas: defineCollection({ loader: mdxFolder("./content/paginas"), schema: contentPageSchema }),
};
