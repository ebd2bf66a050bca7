import type { APIRoute } from "astro";
import { buildAccessMatrix } from "../../../lib/server/admin/access-matrix";
import { getDb } from "../../../lib/server/data/db";
import { refuseUnlessAllowed } from "../../../lib/server/http/guards";
import { jsonResponse } from "../../../lib/server/http/http";

export const prerender = false;

/** 'Quem acessa o quê': pages × roles and each user's pages, from the gate's own rule. */
export const GET: APIRoute = async ({ locals }) => {
  const refused = refuseUnlessAllowed(locals, "/admin-panel");
  if (refused) return refused;
  return jsonResponse(200, await buildAccessMatrix(getDb()));
};
