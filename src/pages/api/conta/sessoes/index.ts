import type { APIRoute } from "astro";
import { config } from "../../../../lib/server/config/config";
import { getDb } from "../../../../lib/server/data/db";
import { jsonResponse, requestMeta } from "../../../../lib/server/http/http";
import { endMyOtherSessions, listMySessions } from "../../../../lib/server/sessions/my-sessions";
import { SIGN_IN_AGAIN_CODE, SIGN_IN_AGAIN_MESSAGE } from "../../../../lib/server/sessions/recent-sign-in";

export const prerender = false;

/** 'Minhas sessões': every active session of the signed-in person. */
export const GET: APIRoute = async ({ locals }) => {
  if (!locals.principal) return jsonResponse(401, { error: "Não autenticado" });
  return jsonResponse(200, {
    sessions: await listMySessions(getDb(), locals.principal.userId, locals.sessionId),
    timeZone: config().tzDisplay,
  });
};

/** 'Encerrar todas as outras': every session but this one ends (after a recent sign-in only). */
export const DELETE: APIRoute = async ({ locals, request }) => {
  if (!locals.principal || !locals.sessionId) return jsonResponse(401, { error: "Não autenticado" });
  const ended = await endMyOtherSessions(getDb(), { userId: locals.principal.userId, ...requestMeta(locals, request) }, locals.sessionId);
  if (ended === null) return jsonResponse(403, { error: SIGN_IN_AGAIN_MESSAGE, code: SIGN_IN_AGAIN_CODE });
  return jsonResponse(200, { message: ended === 1 ? "1 sessão encerrada." : `${ended} sessões encerradas.`, ended });
};
