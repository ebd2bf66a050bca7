import { z } from "astro/zod";
import { linkSchema, text } from "./common";

/** /home-metodologia. */
export const methodologyHomeSchema = z.object({
  /** Banner. */
  hero: z.object({ /** Title. */ title: text, /** Paragraph. */ text: text }),
  /** 'O que é a Metodologia B1'. */
  what: z.object({ /** Heading. */ title: text, /** Paragraphs. */ paragraphs: z.array(text).min(1) }),
  /** Shortcut cards (stages, templates…). */
  shortcuts: z.array(z.object({ /** Title. */ title: text, /** Line. */ text: text, /** Internal route. */ href: linkSchema })).min(2),
  /** The two Fast Track cards: general (2 days) and the 5-day sprint. */
  fastTrack: z
    .array(
      z.object({
        /** Title. */ title: text,
        /** Summary. */ text: text,
        /** Duration badge. */ duration: text,
        /** Internal route. */ href: linkSchema,
      }),
    )
    .length(2),
});
