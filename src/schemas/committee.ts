import { z } from "astro/zod";
import { text } from "./common";

/** /comite-ia. */
export const committeeSchema = z.object({
  /** Intro paragraph. */
  intro: text,
  /** Six goals. */
  goals: z.array(text).length(6),
  /** Areas represented. */
  areas: z.array(text).min(3),
  /** RACI model of the committee. */
  raci: z
    .array(z.object({ /** Activity. */ activity: text, /** R. */ r: text, /** A. */ a: text, /** C. */ c: text, /** I. */ i: text }))
    .min(3),
  /** Strategic mentoring paragraphs. */
  mentoring: z.array(text).min(1),
  /** Four-pillar AI plan. */
  plan: z.array(z.object({ /** Pillar. */ title: text, /** Text. */ text: text })).length(4),
  /** Macro schedule V0. */
  schedule: z.object({
    /** Focus of the quarter. */
    focus: text,
    /** Targets. */
    targets: z.array(text).min(2),
    /** Five phases with their tasks. */
    phases: z
      .array(
        z.object({
          /** Days range (e.g. 0-30). */ range: z.enum(["0-30", "30-60", "60-120", "120-180", "180-360"]),
          /** Title. */ title: text,
          /** Tasks. */ tasks: z.array(text).min(2),
        }),
      )
      .length(5),
  }),
  /** Six fostered or planned actions. */
  actions: z.array(z.object({ /** Action. */ title: text, /** Status. */ status: z.enum(["Fomentada", "Planejada"]) })).length(6),
  /** Governance rhythm. */
  governance: z.array(text).min(3),
});
