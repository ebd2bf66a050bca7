import type { APIRoute } from "astro";
import { roleSchema } from "../../../../lib/admin/forms";
import { refusalBody } from "../../../../lib/server/admin/result";
import { getDb } from "../../../../lib/server/data/db";
import { actorOf, refuseUnlessAllowed } from "../../../../lib/server/http/guards";
import { jsonResponse, parseJsonBody } from "../../../../lib/server/http/http";
import { deleteRoleAsAdmin, updateRoleAsAdmin } from "../../../../lib/server/admin/roles";

export const prerender = false;

function roleId(raw: string | undefined): number {
  return /^\d+$/.test(raw ?? "") ? Number(raw) : -1;
}

export const PUT: APIRoute = async ({ locals, request, params }) => {
  const refused = refuseUnlessAllowed(locals, "/admin-panel");
  if (refused) return refused;
  const parsed = await parseJsonBody(request, roleSchema);
  if (!parsed.ok) return parsed.response;
  const result = await updateRoleAsAdmin(getDb(), roleId(params.id), parsed.data, actorOf(locals, request));
  if (!result.ok) return jsonResponse(result.status, refusalBody(result));
  return jsonResponse(200, { message: "Perfil atualizado com sucesso" });
};

export const DELETE: APIRoute = async ({ locals, request, params }) => {
  const refused = refuseUnlessAllowed(locals, "/admin-panel");
  if (refused) return refused;
  const result = await deleteRoleAsAdmin(getDb(), roleId(params.id), actorOf(locals, request));
  if (!result.ok) return jsonResponse(result.status, refusalBody(result));
  return jsonResponse(200, { message: "Perfil excluído com sucesso" });
};
