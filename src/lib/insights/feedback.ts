/** 'Esta página ajudou?': the vote's fields, shared by the form, the endpoint and the Insights page. */
import { z } from "zod";
import { INVISIBLE_EXCEPT_LINE_BREAK } from "../auth/rules.ts";
import { FEEDBACK_REASONS, type FeedbackReason } from "./labels.ts";

export { COMMENT_STATUSES, FEEDBACK_REASONS, reasonLabel, statusLabel, type CommentStatus, type FeedbackReason } from "./labels.ts";

export const MAX_COMMENT_LENGTH = 1000;

const PAGE_PATH = /^\/[a-z0-9/_-]{0,200}$/i;

const page = z.string({ error: "Página inválida." }).regex(PAGE_PATH, "Página não encontrada.");
const version = z.string({ error: "Versão inválida." }).regex(/^[\w.-]{1,40}$/, "Versão inválida.");

export const feedbackVoteSchema = z.strictObject(
  {
    pagina: page,
    versao: version,
    ajudou: z.boolean({ error: "Responda Sim ou Não." }),
    motivo: z
      .enum(
        FEEDBACK_REASONS.map((reason) => reason.value),
        { error: "Motivo inválido." },
      )
      .nullish(),
    comentario: z
      .string({ error: "Comentário inválido." })
      .max(MAX_COMMENT_LENGTH, `O comentário pode ter no máximo ${MAX_COMMENT_LENGTH} caracteres.`)
      .refine((text) => !INVISIBLE_EXCEPT_LINE_BREAK.test(text), "O comentário não pode conter caracteres de controle ou invisíveis.")
      .optional(),
    contato: z.boolean({ error: "Campo de contato inválido." }).optional(),
  },
  { error: "Campo não reconhecido." },
);
export type FeedbackVote = z.infer<typeof feedbackVoteSchema>;

export const feedbackLookupSchema = z.strictObject({ pagina: page, versao: version }, { error: "Parâmetro não reconhecido." });

/** The person's own vote on a page version, as GET /api/opiniao answers. */
export interface OwnVote {
  ajudou: boolean;
  motivo: FeedbackReason | null;
}
