import { z } from "astro/zod";
import { colorSchema, linkSchema, text } from "./common";

/** /playbook-produtos. */
export const playbookSchema = z.object({
  /** 22 guides: Fundamentos 6, Estratégia 8, Execução 8 (in this order). */
  guides: z
    .array(
      z.object({
        /** Stable id (kebab-case): the guide's page is content/guias/<id>.mdx when it exists. */
        id: text.regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, "use letras minúsculas, números e hífens"),
        /** Section of the guide. */
        section: z.enum(["Fundamentos", "Estratégia", "Execução"]),
        /** Title. */
        title: text,
        /** Summary. */
        description: text,
        /** 'Ler tudo' notes page (empty while unpublished). */
        link: linkSchema,
        /** Card colour. */
        color: colorSchema,
      }),
    )
    .length(22)
    .refine(
      (guides) =>
        guides.slice(0, 6).every((g) => g.section === "Fundamentos") &&
        guides.slice(6, 14).every((g) => g.section === "Estratégia") &&
        guides.slice(14).every((g) => g.section === "Execução"),
      {
        message: "os guias devem vir na ordem: 6 Fundamentos, 8 Estratégia, 8 Execução",
      },
    )
    .refine((guides) => new Set(guides.map((guide) => guide.id)).size === guides.length, {
      message: "cada guia precisa de um id diferente",
    }),
  /** 'Artefatos Estratégicos' (all 'Em breve - Em construção'). */
  artefacts: z.array(z.object({ /** Title. */ title: text, /** Summary. */ description: text })).length(14),
  /** Ecossistema section. */
  ecosystem: z.object({
    /** Heading. */ title: text,
    /** Paragraph. */ text: text,
    /** External document (empty while unpublished). */ link: linkSchema,
  }),
});
