import type { APIRoute } from "astro";
import { isAdmin } from "../../../lib/routes";
import { verifyAuditChain } from "../../../lib/server/audit/verify";
import { getDb } from "../../../lib/server/data/db";
import { refuseUnlessAllowed } from "../../../lib/server/http/guards";
import { jsonResponse } from "../../../lib/server/http/http";

export const prerender = false;

/** The hash chain's and its head's state, for administrators (on a snapshot, yielding between chunks of rows). */
export const GET: APIRoute = async ({ locals }) => {
  const refused = refuseUnlessAllowed(locals, "/audit-logs");
  if (refused) return refused;
  if (!isAdmin(locals.principal)) return jsonResponse(403, { error: "Acesso negado" });
  return jsonResponse(200, await verifyAuditChain(getDb()));
};
