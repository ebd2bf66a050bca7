import type { APIRoute } from "astro";
import { roleSchema } from "../../../../lib/admin/forms";
import { refusalBody } from "../../../../lib/server/admin/result";
import { getDb } from "../../../../lib/server/data/db";
import { actorOf, refuseUnlessAllowed } from "../../../../lib/server/http/guards";
import { jsonResponse, parseJsonBody } from "../../../../lib/server/http/http";
import { createRoleAsAdmin, listChecklistPages, listRoles } from "../../../../lib/server/admin/roles";

export const prerender = false;

export const GET: APIRoute = async ({ locals }) => {
  const refused = refuseUnlessAllowed(locals, "/admin-panel");
  if (refused) return refused;
  const db = getDb();
  return jsonResponse(200, { roles: await listRoles(db), pages: await listChecklistPages(db) });
};

export const POST: APIRoute = async ({ locals, request }) => {
  const refused = refuseUnlessAllowed(locals, "/admin-panel");
  if (refused) return refused;
  const parsed = await parseJsonBody(request, roleSchema);
  if (!parsed.ok) return parsed.response;
  const result = await createRoleAsAdmin(getDb(), parsed.data, actorOf(locals, request));
  if (!result.ok) return jsonResponse(result.status, refusalBody(result));
  return jsonResponse(201, { id: result.value.id, message: "Perfil criado com sucesso" });
};
