import type { APIRoute } from "astro";
import { refusalBody } from "../../../lib/server/admin/result";
import { applyIntegrationAction, integrationActionSchema, integrationViews } from "../../../lib/server/admin/integrations";
import { getDb } from "../../../lib/server/data/db";
import { actorOf, refuseUnlessAllowed } from "../../../lib/server/http/guards";
import { jsonResponse, parseJsonBody } from "../../../lib/server/http/http";

export const prerender = false;

/** The audit streaming destinations' state (Integrações tab). */
export const GET: APIRoute = async ({ locals }) => {
  const refused = refuseUnlessAllowed(locals, "/admin-panel");
  if (refused) return refused;
  return jsonResponse(200, { destinations: await integrationViews(getDb()) });
};

/** Pause, resume or resend from a chain id or a date (audited). */
export const POST: APIRoute = async ({ locals, request }) => {
  const refused = refuseUnlessAllowed(locals, "/admin-panel");
  if (refused) return refused;
  const parsed = await parseJsonBody(request, integrationActionSchema);
  if (!parsed.ok) return parsed.response;
  const result = await applyIntegrationAction(getDb(), parsed.data, actorOf(locals, request));
  if (!result.ok) return jsonResponse(result.status, refusalBody(result));
  return jsonResponse(200, result.value);
};
