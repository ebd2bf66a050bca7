import { z } from "astro/zod";
import { iconSchema, linkSchema, text } from "./common";

/** AI First principles + the 2-day Fast Track (/metodologia-ai-first) and the 5-day sprint (/ai-first-fast-track). */
export const fastTrackSchema = z.object({
  /** AI First principles. */
  principles: z.array(z.object({ /** Title. */ title: text, /** Text. */ text: text, /** Icon. */ icon: iconSchema })).length(4),
  /** The 2-day promise banner. */
  banner: text,
  /** 2-day Fast Track. */
  twoDays: z.object({
    /** Intro. */
    intro: text,
    /** Four highlights. */
    highlights: z.array(z.object({ /** Title. */ title: text, /** Text. */ text: text, /** Icon. */ icon: iconSchema })).length(4),
    /** D1 with the client: 4 steps. */
    day1: z.array(text).length(4),
    /** D2 in-house: 4 steps. */
    day2: z.array(text).length(4),
  }),
  /** 5-day sprint. */
  sprint: z.object({
    /** Intro. */
    intro: text,
    /** D1 Ideação … D5 Validação. */
    days: z
      .array(
        z.object({
          /** D1…D5. */ day: z.enum(["D1", "D2", "D3", "D4", "D5"]),
          /** Name. */ title: text,
          /** Description. */ description: text,
          /** Outputs. */ outputs: z.array(text).min(2),
          /** Example. */ example: text,
          /** The day's call to action; empty link → shown as 'em breve'. */
          cta: z.object({ /** Button text. */ label: text, /** Address. */ link: linkSchema }),
        }),
      )
      .length(5),
    /** 'Por que funciona'. */
    why: z.array(z.object({ /** Title. */ title: text, /** Text. */ text: text })).min(3),
  }),
});
