/** Search queries as Insights stores them (shared by the search dialog and the server). */
import { z } from "zod";
import { INVISIBLE_CHARACTER } from "../auth/rules.ts";

/** Longest query kept (characters, after normalising); a longer one is refused, not cut. */
export const MAX_QUERY_LENGTH = 100;

/** Lower case, compatibility-normalised (NFKC), inner spaces collapsed, ends trimmed. */
export function normaliseQuery(query: string): string {
  return query.normalize("NFKC").toLocaleLowerCase("pt-BR").replace(/\s+/g, " ").trim();
}

/** Why a raw query cannot be stored, or null. */
export function queryProblem(query: string): string | null {
  if (INVISIBLE_CHARACTER.test(query)) return "A busca não pode conter caracteres de controle ou invisíveis.";
  const normalised = normaliseQuery(query);
  if (normalised.length === 0) return "Busca vazia.";
  if (normalised.length > MAX_QUERY_LENGTH) return `Busca longa demais (máximo de ${MAX_QUERY_LENGTH} caracteres).`;
  return null;
}

/** The search beacon's body (search-beacon.ts); the query is checked by queryProblem after the schema. */
export const searchBeaconSchema = z.strictObject(
  {
    consulta: z.string({ error: "Busca inválida." }).max(1000, `Busca longa demais (máximo de ${MAX_QUERY_LENGTH} caracteres).`),
    resultados: z
      .int({ error: "Número de resultados inválido." })
      .min(0, "Número de resultados inválido.")
      .max(10_000, "Número de resultados inválido."),
    aberto: z.int({ error: "Posição inválida." }).min(1, "Posição inválida.").max(10_000, "Posição inválida.").nullable(),
  },
  { error: "Campo não reconhecido." },
);
