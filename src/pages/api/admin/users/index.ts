import type { APIRoute } from "astro";
import { createUserSchema } from "../../../../lib/admin/forms";
import { createUserAsAdmin, refusalBody } from "../../../../lib/server/admin-users";
import { getDb } from "../../../../lib/server/db";
import { actorOf, refuseUnlessAllowed } from "../../../../lib/server/guards";
import { jsonResponse, parseJsonBody } from "../../../../lib/server/http";
import { listUsersWithRoles } from "../../../../lib/server/user";

export const prerender = false;

export const GET: APIRoute = ({ locals }) => {
  const refused = refuseUnlessAllowed(locals, "/admin-panel");
  if (refused) return refused;
  return jsonResponse(200, { users: listUsersWithRoles(getDb()) });
};

export const POST: APIRoute = async ({ locals, request }) => {
  const refused = refuseUnlessAllowed(locals, "/admin-panel");
  if (refused) return refused;
  const parsed = await parseJsonBody(request, createUserSchema);
  if (!parsed.ok) return parsed.response;
  const result = await createUserAsAdmin(getDb(), parsed.data, actorOf(locals, request));
  if (!result.ok) return jsonResponse(result.status, refusalBody(result));
  return jsonResponse(201, { id: result.value.id, message: "Usuário criado com sucesso" });
};
