import { z } from "astro/zod";
import { SYSTEM_ROLES } from "../lib/routes";
import { text } from "./common";

/** Longest one-line summary of a version (it is shown in lists, e-mails and the page's 'O que mudou'). */
export const READING_SUMMARY_MAX = 200;

/**
 * `leitura` in a page's frontmatter: the page is required reading. Editors bump `versao` (and
 * rewrite `resumo`) only when a change needs everyone to read the page again; a typo fix keeps it.
 */
export const readingSchema = z.strictObject(
  {
    /** The page's version for confirmations: a whole number that only grows (1, 2, 3…). */
    versao: z
      .number({ error: "use um número inteiro a partir de 1" })
      .int("use um número inteiro a partir de 1")
      .min(1, "use um número inteiro a partir de 1"),
    /** One line in Portuguese: what changed in this version (shown to who must read it again). */
    resumo: text
      .max(READING_SUMMARY_MAX, `o resumo tem no máximo ${READING_SUMMARY_MAX} caracteres: uma linha sobre o que mudou`)
      .refine((value) => !/[\r\n]/.test(value), { message: "o resumo é uma linha só (sem quebras de linha)" }),
    /** Only these system roles must confirm (default: everyone who may open the page). */
    perfis: z
      .array(z.enum(SYSTEM_ROLES, { error: `use perfis do sistema (${SYSTEM_ROLES.join(", ")})` }))
      .min(1, "liste ao menos um perfil ou apague o campo (padrão: todos que podem abrir a página)")
      .optional(),
  },
  {
    error: (issue) =>
      issue.code === "unrecognized_keys"
        ? `campo desconhecido: ${issue.keys.join(", ")}`
        : issue.code === "invalid_type"
          ? "use um bloco com versao, resumo e, se quiser, perfis"
          : undefined,
  },
);

export type ReadingFields = z.infer<typeof readingSchema>;

/**
 * content/leitura-obrigatoria.yaml: the same fields for pages whose text is YAML or code
 * (e.g. /comite-ia), which have no frontmatter of their own.
 */
export const readingDeclarationSchema = readingSchema.extend({
  /** Stable name of the entry. */
  id: text,
  /** The page's address, e.g. /comite-ia. */
  pagina: z.string().regex(/^\/[a-z0-9-]+(\/[a-z0-9-]+)*$/, "use o endereço da página, ex.: /comite-ia"),
  position: z.number().int().min(0).optional(),
});
