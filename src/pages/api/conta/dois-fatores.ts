import type { APIRoute } from "astro";
import { twoFactorCodeSchema } from "../../../lib/auth/two-factor-forms";
import { failureResponse } from "../../../lib/server/auth/result";
import { config } from "../../../lib/server/config/config";
import { getDb } from "../../../lib/server/data/db";
import { jsonResponse, parseJsonBody, requestMeta } from "../../../lib/server/http/http";
import { beginTwoFactorEnrolment, confirmTwoFactorEnrolment, readTwoFactorStatus } from "../../../lib/server/auth/two-factor/enrolment";

export const prerender = false;

function signedIn(locals: App.Locals) {
  return locals.principal ? { userId: locals.principal.userId, email: locals.principal.email, sessionId: locals.sessionId } : null;
}

/** Whether the signed-in person has two-factor on, and whether the portal offers it. */
export const GET: APIRoute = async ({ locals }) => {
  const user = signedIn(locals);
  if (!user) return jsonResponse(401, { error: "Não autenticado" });
  return jsonResponse(200, { available: config().twoFactor.key !== null, ...(await readTwoFactorStatus(getDb(), user.userId)) });
};

/** Starts enrolment: a new key as a QR code (SVG) and as text. */
export const POST: APIRoute = async ({ locals }) => {
  const user = signedIn(locals);
  if (!user) return jsonResponse(401, { error: "Não autenticado" });
  const result = await beginTwoFactorEnrolment(getDb(), config().twoFactor.key, user);
  return result.ok ? jsonResponse(200, result.value) : failureResponse(result);
};

/** Confirms enrolment with the first code; answers the recovery codes, shown only this once. */
export const PUT: APIRoute = async ({ locals, request }) => {
  const user = signedIn(locals);
  if (!user) return jsonResponse(401, { error: "Não autenticado" });
  const parsed = await parseJsonBody(request, twoFactorCodeSchema);
  if (!parsed.ok) return parsed.response;
  const result = await confirmTwoFactorEnrolment(getDb(), config().twoFactor.key, user, parsed.data.code, requestMeta(locals, request));
  return result.ok ? jsonResponse(200, result.value) : failureResponse(result);
};
