import { z } from "astro/zod";
import { colorSchema, iconSchema, fileSchema, linkSchema, text } from "./common";

/**
 * Frontmatter of one of the 8 process stages (content/etapas/<id>.mdx, the file name is the id);
 * the MDX body is the stage's description.
 */
export const stageSchema = z
  .strictObject({
    /** 1…8. */
    number: z.number().int().min(1).max(8),
    /** Stage name. */
    title: text,
    /** Suggested tools (names; each gets a download action and a learn-more dialog). */
    tools: z.array(text).min(2),
    /** Main template of the stage. */
    template: text,
    /** Card colour. */
    color: colorSchema,
    /** Lucide icon. */
    icon: iconSchema,
  })
  // The page lists the tools and then the template: naming it in both would show it twice.
  .refine((stage) => !stage.tools.includes(stage.template), {
    message: "o template da etapa já aparece na lista: não repita em `tools` o nome dado em `template`",
    path: ["tools"],
  });

/** An AI tool of stage 5's 'Inteligência Artificial' row, or a recommended tool. */
export const toolSchema = z.object({
  /** Stable id. */
  id: text,
  /** Tool name. */
  name: text,
  /** What it is used for. */
  description: text,
  /** Grouping label. */
  category: text,
  /** Official site (empty when unknown). */
  link: linkSchema,
  /** Or a file in content/arquivos/ (served through the gate); use one of `link` and `file`. */
  file: fileSchema,
});

/** Explanatory text per tool or template name (learn-more dialogs). */
export const toolDescriptionSchema = z.object({
  /** Tool or template name, exactly as used elsewhere. */
  id: text,
  /** Explanation. */
  description: text,
});

/** The real case: a payment-method project across the 8 phases. */
export const caseStudySchema = z.object({
  /** Heading. */
  title: text,
  /** Summary of the project. */
  summary: text,
  /** One per stage. */
  phases: z
    .array(
      z.object({
        /** Stage id. */
        id: text,
        /** Phase title. */
        title: text,
        /** Three questions. */
        questions: z
          .array(
            z.object({
              /** The question asked. */
              question: text,
              /** What the team answered. */
              answer: text,
              /** Analysis. */
              analysis: text,
              /** Impact on the project. */
              impact: text,
              /** positive (green), partial (yellow), negative (red). */
              status: z.enum(["positive", "partial", "negative"]),
            }),
          )
          .length(3),
      }),
    )
    .length(8),
});
