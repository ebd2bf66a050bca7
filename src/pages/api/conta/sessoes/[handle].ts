import type { APIRoute } from "astro";
import { getDb } from "../../../../lib/server/data/db";
import { jsonResponse, requestMeta } from "../../../../lib/server/http/http";
import { endMySession } from "../../../../lib/server/sessions/my-sessions";

export const prerender = false;

/** Ends one of the person's own sessions; another person's handle is simply not found. */
export const DELETE: APIRoute = async ({ locals, request, params }) => {
  if (!locals.principal) return jsonResponse(401, { error: "Não autenticado" });
  const ended = await endMySession(getDb(), { userId: locals.principal.userId, ...requestMeta(locals, request) }, params.handle ?? "");
  if (!ended) return jsonResponse(404, { error: "Sessão não encontrada ou já encerrada." });
  return jsonResponse(200, { message: "Sessão encerrada." });
};
