import { z } from "astro/zod";
import { text } from "./common";

/** The nine glossary categories. */
export const GLOSSARY_CATEGORIES = [
  "Produto",
  "Gestão",
  "Métricas",
  "Processo",
  "Metodologia",
  "Ferramenta",
  "Planejamento",
  "Qualidade",
  "Design",
] as const;

/** A term of /glossario. */
export const glossaryTermSchema = z.object({
  /** Stable id (kebab-case). */
  id: text,
  /** The term. */
  term: text,
  /** Definition. */
  definition: text,
  /** Category badge. */
  category: z.enum(GLOSSARY_CATEGORIES),
  /** How the term is used at B1. */
  context: text,
});
