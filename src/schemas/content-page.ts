import { z } from "astro/zod";
import { SYSTEM_ROLES } from "../lib/routes";
import { text } from "./common";
import { readingSchema } from "./reading";

/** Who may open a content page: any signed-in person, or holders of the listed system roles. */
const ACCESS_CHOICES = `use "signed-in" ou uma lista de perfis do sistema`;
export const contentAccessSchema = z.union([z.literal("signed-in"), z.array(z.enum(SYSTEM_ROLES)).min(1, "liste ao menos um perfil")], {
  // A page without `access` is told the field is missing (it has no default: who may open a page is always written down).
  error: (issue) =>
    issue.input === undefined
      ? `falta o campo obrigatório \`access\` (${ACCESS_CHOICES}: ${SYSTEM_ROLES.join(", ")})`
      : `${ACCESS_CHOICES} (${SYSTEM_ROLES.join(", ")})`,
});

/** Frontmatter of a page written by editors (content/paginas/<slug>.mdx). */
export const contentPageSchema = z.strictObject(
  {
    /** Page title (heading, browser tab, pages table, admin checklists). */
    title: text,
    /** One sentence: meta description and search excerpt. */
    description: text,
    /** Where the page is listed in the navigation: the header menu, or nowhere. */
    nav: z.enum(["header", "none"], { error: 'use "header" (menu do cabeçalho) ou "none" (sem entrada no menu)' }).default("none"),
    /** Label in the menu (defaults to the title). */
    navLabel: text.optional(),
    /** Position among the content pages in the menu (smaller first). */
    order: z.number({ error: "use um número inteiro" }).int("use um número inteiro").default(100),
    access: contentAccessSchema,
    /** Date shown as 'Atualizado em' instead of the file's last commit. */
    updated: z.coerce.date({ error: "use uma data AAAA-MM-DD" }).optional(),
    /** Required reading: version and one-line summary of the change (see docs/editar-conteudo.md). */
    leitura: readingSchema.optional(),
  },
  { error: (issue) => (issue.code === "unrecognized_keys" ? `campo desconhecido: ${issue.keys.join(", ")}` : undefined) },
);

export type ContentPageFrontmatter = z.infer<typeof contentPageSchema>;
