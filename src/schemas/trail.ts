import { z } from "astro/zod";
import { colorSchema, iconSchema, text } from "./common";

import { TRAIL_PHASE_IDS } from "../lib/trail/trail";

/** A phase of the interactive project trail (/trilha-interativa). */
export const trailPhaseSchema = z.object({
  /** One of TRAIL_PHASE_IDS. */
  id: z.enum(TRAIL_PHASE_IDS),
  /** Phase title. */
  title: text,
  /** What the phase is about. */
  description: text,
  /** Lucide icon. */
  icon: iconSchema,
  /** Colour of the phase. */
  color: colorSchema,
  /** Pillars worked in the phase (joined by ' + ' in the list). */
  pillars: z.array(z.enum(["Propósito", "Problemas", "Pessoas", "Processo", "Performance"])).min(1),
  /** Exactly three key questions. */
  questions: z.array(text).length(3),
  /** Exactly three tools (names). */
  tools: z.array(text).length(3),
  /** Exactly three templates (names). */
  templates: z.array(text).length(3),
  /** A practical example. */
  example: text,
});
