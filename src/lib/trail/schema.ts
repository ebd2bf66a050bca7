import { z } from "zod";
import { INVISIBLE_CHARACTER, INVISIBLE_EXCEPT_LINE_BREAK } from "../auth/rules.ts";
import { MAX_ANSWER_LENGTH, MAX_PROJECT_NAME_LENGTH } from "./trail";

/** Body of PUT /api/trail; phase ids are checked against the content by the endpoint. */
export const trailBodySchema = z.object({
  completed: z.array(z.string().max(40), { message: "Lista de fases inválida" }).max(20),
  answers: z.record(
    z.string().max(40),
    z.record(
      z.string().regex(/^[0-2]$/, "Índice de pergunta inválido"),
      z
        .string()
        .max(MAX_ANSWER_LENGTH, "Resposta muito longa")
        .refine((text) => !INVISIBLE_EXCEPT_LINE_BREAK.test(text), "Resposta não pode conter caracteres de controle ou invisíveis"),
    ),
  ),
  projectName: z
    .string()
    .max(MAX_PROJECT_NAME_LENGTH, "Nome do projeto muito longo")
    .refine((name) => !INVISIBLE_CHARACTER.test(name), "Nome do projeto não pode conter caracteres de controle ou invisíveis"),
  updatedAt: z.number().int().nonnegative(),
  /** The account the page loaded the trail for; a save from a page left open by someone else is refused. */
  owner: z.string().max(100).optional(),
});
