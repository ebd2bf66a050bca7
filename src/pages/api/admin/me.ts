import type { APIRoute } from "astro";
import { refuseUnlessAllowed } from "../../../lib/server/http/guards";
import { jsonResponse } from "../../../lib/server/http/http";

export const prerender = false;

/** Visão Geral: who is signed in. */
export const GET: APIRoute = ({ locals }) => {
  const refused = refuseUnlessAllowed(locals, "/admin-panel");
  if (refused) return refused;
  const { email, name, roles } = locals.principal!;
  return jsonResponse(200, { email, fullName: name, roles });
};
