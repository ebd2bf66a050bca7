import type { APIRoute } from "astro";
import { config } from "../../../../../lib/server/config/config";
import { getDb } from "../../../../../lib/server/data/db";
import { actorOf, refuseUnlessAllowed } from "../../../../../lib/server/http/guards";
import { jsonResponse } from "../../../../../lib/server/http/http";
import { failureResponse } from "../../../../../lib/server/auth/result";
import { resetTwoFactor } from "../../../../../lib/server/auth/two-factor/enrolment";
import { getUserById } from "../../../../../lib/server/auth/user";

export const prerender = false;

/** An administrator removes a user's second factor (lost phone); the user enrols again. */
export const DELETE: APIRoute = async ({ locals, request, params }) => {
  const refused = refuseUnlessAllowed(locals, "/admin-panel");
  if (refused) return refused;
  const user = await getUserById(getDb(), params.id ?? "");
  if (!user) return jsonResponse(404, { error: "Usuário não encontrado" });
  const result = await resetTwoFactor(getDb(), config().twoFactor.key, { userId: user.id, email: user.email }, actorOf(locals, request));
  if (!result.ok) return failureResponse(result);
  return jsonResponse(200, { message: "Verificação em duas etapas redefinida. O usuário vai cadastrá-la de novo no próximo acesso." });
};
