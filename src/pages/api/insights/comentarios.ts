import type { APIRoute } from "astro";
import { z } from "zod";
import { getDb } from "../../../lib/server/data/db";
import { refuseUnlessAllowed } from "../../../lib/server/http/guards";
import { jsonResponse, parseJsonBody } from "../../../lib/server/http/http";
import { setCommentStatus } from "../../../lib/server/insights/report";
import { COMMENT_STATUSES } from "../../../lib/insights/feedback";
import { INSIGHTS_PATH } from "../../../lib/insights/report";

export const prerender = false;

const statusSchema = z.strictObject(
  {
    id: z.uuid({ error: "Comentário inválido." }),
    status: z.enum(
      COMMENT_STATUSES.map((status) => status.value),
      { error: "Situação inválida: use nova, em-analise ou resolvida." },
    ),
  },
  { error: "Campo não reconhecido." },
);

/** Moves a comment between nova, em análise and resolvida. */
export const PATCH: APIRoute = async ({ locals, request }) => {
  const refused = refuseUnlessAllowed(locals, INSIGHTS_PATH);
  if (refused) return refused;
  const parsed = await parseJsonBody(request, statusSchema);
  if (!parsed.ok) return parsed.response;
  const changed = await setCommentStatus(getDb(), locals.principal!, parsed.data.id, parsed.data.status);
  if (!changed) return jsonResponse(404, { error: "Comentário não encontrado." });
  return jsonResponse(200, { id: parsed.data.id, status: parsed.data.status });
};
