import { z } from "astro/zod";
import { filePosition } from "./common";

/** A term as people type it or as the pages write it: a few words, letters, digits, spaces and hyphens. */
const term = z
  .string()
  .trim()
  .min(2, "termo curto demais (mínimo de 2 letras)")
  .max(60, "termo longo demais (máximo de 60 caracteres)")
  .regex(/^[\p{L}\p{N}]+(?:[ -][\p{L}\p{N}]+)*$/u, "use só letras, números, espaços e hífens (sem pontuação)");

/**
 * One entry of content/busca/sinonimos.yaml: what people type (`termos`) → the words the pages use
 * (`nas_paginas`). The search looks for both; a reader only ever receives the entries whose page words
 * are on pages they may open (scripts/build-search.ts).
 */
export const searchSynonymSchema = z
  .object({
    /** Stable id (kebab-case). */
    id: z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, "id em kebab-case (ex.: assistente-conversacional)"),
    /** What people type: synonyms, acronyms, other languages, common names. */
    termos: z.array(term).min(1, "liste ao menos um termo").max(30, "no máximo 30 termos por entrada"),
    /** The words the pages use for it (each searched as a phrase: all its words on the page). */
    nas_paginas: z.array(term).min(1, "liste ao menos uma expressão que as páginas usam").max(10, "no máximo 10 expressões por entrada"),
    position: filePosition,
  })
  .strict();
