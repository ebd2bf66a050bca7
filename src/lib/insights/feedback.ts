/** 'Esta página ajudou?': the vote's fields, shared by the form, the endpoint and the Insights page. */
import { z } from "zod";
import { INVISIBLE_EXCEPT_LINE_BREAK } from "../auth/rules.ts";

export const MAX_COMMENT_LENGTH = 1000;

export const FEEDBACK_REASONS = [
  { value: "desatualizada", label: "Desatualizada" },
  { value: "confusa", label: "Confusa" },
  { value: "falta-informacao", label: "Falta informação" },
  { value: "outro", label: "Outro" },
] as const;
export type FeedbackReason = (typeof FEEDBACK_REASONS)[number]["value"];

export const COMMENT_STATUSES = [
  { value: "nova", label: "Nova" },
  { value: "em-analise", label: "Em análise" },
  { value: "resolvida", label: "Resolvida" },
] as const;
export type CommentStatus = (typeof COMMENT_STATUSES)[number]["value"];

export const reasonLabel = (value: string | null) => FEEDBACK_REASONS.find((reason) => reason.value === value)?.label ?? "";
export const statusLabel = (value: string) => COMMENT_STATUSES.find((status) => status.value === value)?.label ?? value;

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
