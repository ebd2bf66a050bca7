import type { APIRoute } from "astro";
import { buildAccessMatrix, userAccess } from "../../../lib/server/admin/access-matrix";
import { getDb } from "../../../lib/server/data/db";
import { refuseUnlessAllowed } from "../../../lib/server/http/guards";
import { jsonResponse } from "../../../lib/server/http/http";

export const prerender = false;

/** 'Quem acessa o quê': pages × roles from the gate's own rule; `?user=<id>`: that user's pages and why. */
export const GET: APIRoute = async ({ locals, url }) => {
  const refused = refuseUnlessAllowed(locals, "/admin-panel");
  if (refused) return refused;
  const userId = url.searchParams.get("user");
  if (userId === null) return jsonResponse(200, await buildAccessMatrix(getDb()));
  const access = userId.length <= 100 ? await userAccess(getDb(), userId) : null;
  return access ? jsonResponse(200, access) : jsonResponse(404, { error: "Usuário não encontrado." });
};
