import { z } from "astro/zod";
import { colorSchema, iconSchema, text } from "./common";

/** One of the five pillars (the 5 Ps) on /5ps. */
export const pillarSchema = z.object({
  /** Anchor on /5ps: principios, processos, papeis, performance, pessoas. */
  id: z.enum(["principios", "processos", "papeis", "performance", "pessoas"]),
  /** P1…P5. */
  code: z.string().regex(/^P[1-5]$/, "use P1 a P5"),
  /** Pillar name. */
  title: text,
  /** One-line summary. */
  subtitle: text,
  /** Card colour. */
  color: colorSchema,
  /** Lucide icon. */
  icon: iconSchema,
  /** Principles. */
  principles: z.array(text).min(2),
  /** Concrete examples. */
  examples: z.array(text).min(2),
  /** Good practices. */
  practices: z.array(text).min(2),
});

/** A detailed role card (pillar P3, 'Papéis Detalhados'). */
export const roleCardSchema = z.object({
  /** Stable id. */
  id: text,
  /** Group of the role. */
  group: z.enum(["Produto", "Tecnologia", "Design", "Governança", "Cliente"]),
  /** Role title. */
  title: text,
  /** Lucide icon. */
  icon: iconSchema,
  /** Responsibilities. */
  responsibilities: z.array(text).min(3),
});

/** The RACI explainer. */
export const raciSchema = z.object({
  /** Intro paragraph. */
  intro: text,
  /** R, A, C, I. */
  letters: z
    .array(
      z.object({ /** Letter. */ letter: z.enum(["R", "A", "C", "I"]), /** Portuguese name. */ name: text, /** Meaning. */ text: text }),
    )
    .length(4),
  /** When to build the board. */
  recommendation: text,
  /** Podcast card (external link may be empty). */
  podcast: z.object({ /** Title. */ title: text, /** Line. */ text: text, /** External audio page. */ link: z.string().default("") }),
});
