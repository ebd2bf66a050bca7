import type { APIRoute } from "astro";
import { createUserSchema, userListQuerySchema } from "../../../../lib/admin/forms";
import { refusalBody } from "../../../../lib/server/admin/result";
import { createUserAsAdmin } from "../../../../lib/server/admin/users";
import { config } from "../../../../lib/server/config/config";
import { getDb } from "../../../../lib/server/data/db";
import { actorOf, refuseUnlessAllowed } from "../../../../lib/server/http/guards";
import { jsonResponse, parseJsonBody } from "../../../../lib/server/http/http";
import { listUsersPage } from "../../../../lib/server/admin/user-list";
import type { UserListAnswer } from "../../../../lib/admin/types";

export const prerender = false;

/** One page of users: `?q=` (name, e-mail or role, accents and case ignored), `?role=`, `?page=`. */
export const GET: APIRoute = async ({ locals, url }) => {
  const refused = refuseUnlessAllowed(locals, "/admin-panel");
  if (refused) return refused;
  const parsed = userListQuerySchema.safeParse(Object.fromEntries(url.searchParams));
  if (!parsed.success) return jsonResponse(400, { error: parsed.error.issues[0]?.message ?? "Filtro inválido" });
  const query = { search: parsed.data.q, role: parsed.data.role, page: parsed.data.page };
  const answer: UserListAnswer = { ...(await listUsersPage(getDb(), query, config().twoFactor)), directoryOn: config().scim !== null };
  return jsonResponse(200, answer);
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
