import { z } from "astro/zod";
import { text } from "./common";

/** A question of /faq. */
export const faqSchema = z.object({
  /** Stable id (kebab-case). */
  id: text,
  /** The question. */
  question: text,
  /** The answer. */
  answer: text,
});
