import type { APIRoute } from "astro";
import { getDb } from "../../../../../lib/server/data/db";
import { actorOf, refuseUnlessAllowed } from "../../../../../lib/server/http/guards";
import { jsonResponse } from "../../../../../lib/server/http/http";
import { endAllSessionsOfUser } from "../../../../../lib/server/sessions/my-sessions";
import { getUserById } from "../../../../../lib/server/auth/user";

export const prerender = false;

/** An administrator ends every session of a user. */
export const DELETE: APIRoute = async ({ locals, request, params }) => {
  const refused = refuseUnlessAllowed(locals, "/admin-panel");
  if (refused) return refused;
  const user = await getUserById(getDb(), params.id ?? "");
  if (!user) return jsonResponse(404, { error: "Usuário não encontrado" });
  const ended = await endAllSessionsOfUser(getDb(), actorOf(locals, request), { userId: user.id, email: user.email });
  return jsonResponse(200, { message: ended === 1 ? "1 sessão encerrada." : `${ended} sessões encerradas.`, ended });
};
