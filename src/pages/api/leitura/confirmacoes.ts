import type { APIRoute } from "astro";
import { rateLimited } from "../../../lib/server/auth/guards";
import { failureResponse } from "../../../lib/server/auth/result";
import { getDb } from "../../../lib/server/data/db";
import { refuseUnlessAllowed } from "../../../lib/server/http/guards";
import { jsonResponse, parseJsonBody, requestMeta } from "../../../lib/server/http/http";
import { confirmReading } from "../../../lib/server/reading/confirmations";
import { beginAttempt } from "../../../lib/server/throttle/throttle";
import { confirmReadingSchema } from "../../../lib/reading/schema";

export const prerender = false;

/** 'Li e entendi': records the confirmation of the page's current version (again: no change). */
export const POST: APIRoute = async ({ locals, request }) => {
  const refused = refuseUnlessAllowed(locals, "/leitura");
  if (refused) return refused;
  const principal = locals.principal!;
  const meta = requestMeta(locals, request);
  const attempt = await beginAttempt(getDb(), "reading-confirm", meta);
  if (attempt.refused || (await attempt.forAccount(principal.userId, { userId: principal.userId, email: principal.email }))) {
    return failureResponse(rateLimited());
  }
  const parsed = await parseJsonBody(request, confirmReadingSchema);
  if (!parsed.ok) return parsed.response;
  const result = await confirmReading(getDb(), principal, { pagePath: parsed.data.pagina, version: parsed.data.versao }, meta);
  if (!result.ok) return jsonResponse(result.status, { error: result.error });
  return jsonResponse(200, { pagina: parsed.data.pagina, versao: result.version, confirmadaEm: result.confirmedAt });
};
