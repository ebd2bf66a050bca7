import type { APIRoute } from "astro";
import { updateUserSchema } from "../../../../lib/admin/forms";
import { refusalBody } from "../../../../lib/server/admin/result";
import { deleteUserAsAdmin, updateUserAsAdmin } from "../../../../lib/server/admin/users";
import { getDb } from "../../../../lib/server/data/db";
import { actorOf, refuseUnlessAllowed } from "../../../../lib/server/http/guards";
import { jsonResponse, parseJsonBody } from "../../../../lib/server/http/http";

export const prerender = false;

export const PUT: APIRoute = async ({ locals, request, params }) => {
  const refused = refuseUnlessAllowed(locals, "/admin-panel");
  if (refused) return refused;
  const parsed = await parseJsonBody(request, updateUserSchema);
  if (!parsed.ok) return parsed.response;
  const result = await updateUserAsAdmin(getDb(), params.id ?? "", parsed.data, actorOf(locals, request));
  if (!result.ok) return jsonResponse(result.status, refusalBody(result));
  return jsonResponse(200, { message: "Usuário atualizado com sucesso" });
};

export const DELETE: APIRoute = async ({ locals, request, params }) => {
  const refused = refuseUnlessAllowed(locals, "/admin-panel");
  if (refused) return refused;
  const result = await deleteUserAsAdmin(getDb(), params.id ?? "", actorOf(locals, request));
  if (!result.ok) return jsonResponse(result.status, refusalBody(result));
  return jsonResponse(200, { message: "Usuário excluído com sucesso" });
};
