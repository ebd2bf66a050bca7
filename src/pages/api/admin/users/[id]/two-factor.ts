import type { APIRoute } from "astro";
import { getDb } from "../../../../../lib/server/db";
import { actorOf, refuseUnlessAllowed } from "../../../../../lib/server/guards";
import { jsonResponse } from "../../../../../lib/server/http";
import { resetTwoFactor } from "../../../../../lib/server/two-factor";
import { getUserById } from "../../../../../lib/server/user";

export const prerender = false;

/** An administrator removes a user's second factor (lost phone); the user enrols again. */
export const DELETE: APIRoute = async ({ locals, request, params }) => {
  const refused = refuseUnlessAllowed(locals, "/admin-panel");
  if (refused) return refused;
  const user = await getUserById(getDb(), params.id ?? "");
  if (!user) return jsonResponse(404, { error: "Usuário não encontrado" });
  const reset = await resetTwoFactor(getDb(), { userId: user.id, email: user.email }, actorOf(locals, request));
  if (!reset) return jsonResponse(409, { error: "Este usuário não tem verificação em duas etapas ativa." });
  return jsonResponse(200, { message: "Verificação em duas etapas redefinida. O usuário vai cadastrá-la de novo no próximo acesso." });
};
