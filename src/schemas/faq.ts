import { z } from "astro/zod";
import { filePosition, text } from "./common";

/** A question of /faq. */
export const faqSchema = z.object({
  /** Stable id (kebab-case). */
  id: text,
  /** The question. */
  question: text,
  /** The answer. */
  answer: text,
  /** Place in content/faq.yaml: the page keeps the editor's order. */
  position: filePosition,
});
