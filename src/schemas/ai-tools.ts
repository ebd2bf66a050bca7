import { z } from "astro/zod";
import { colorSchema, iconSchema, text } from "./common";

const aiTool = z.object({
  /** Tool name. */
  name: text,
  /** Main function. */
  function: text,
  /** What it is good for ('Serve para'). */
  serve: text,
  /** What it is not good for ('Não serve para'). */
  naoServe: text,
  /** The team's insight. */
  insight: text,
  /** Adoption status. */
  status: z.enum(["Em uso", "Testando", "Avaliando"]),
  /** Card colour. */
  color: colorSchema,
  /** Visual group. */
  category: z.enum(["Desenvolvimento", "Conteúdo", "Automação"]),
});

/** /ferramentas-ia. */
export const aiToolsPageSchema = z.object({
  /** Intro card. */
  intro: z.object({ /** Heading. */ title: text, /** Paragraph. */ text: text }),
  /** Six tool cards ('ferramentas testadas pela empresa'). */
  cards: z.array(aiTool).length(6),
  /** Five tools of the comparison table. */
  table: z.array(aiTool).length(5),
  /** 'Análise detalhada' paragraphs. */
  analysis: z.array(text).min(1),
  /** Prompt engineering. */
  prompts: z.object({
    /** Intro. */
    intro: text,
    /** Conceito, Aplicação, Impacto, Eficiência. */
    summary: z.array(z.object({ /** Title. */ title: text, /** Text. */ text: text, /** Icon. */ icon: iconSchema })).length(4),
    /** Accordion topics. */
    topics: z
      .array(z.object({ /** Stable id. */ id: text, /** Title. */ title: text, /** Paragraphs. */ content: z.array(text).min(1) }))
      .length(5),
    /** Best-practice cards. */
    practices: z.array(z.object({ /** Title. */ title: text, /** Text. */ text: text, /** Icon. */ icon: iconSchema })).length(4),
    /** 'Fundamento estratégico' block. */
    foundation: z.object({ /** Heading. */ title: text, /** Paragraph. */ text: text }),
  }),
  /** Name of the downloadable guide and its address (empty while unpublished). */
  guide: z.object({ /** File name. */ name: text, /** External file. */ link: z.string().default("") }),
});
