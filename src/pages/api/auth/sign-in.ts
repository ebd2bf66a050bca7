import type { APIRoute } from "astro";
import { signInRequestSchema } from "../../../lib/auth/schemas";
import { failureResponse } from "../../../lib/server/auth/result";
import { config } from "../../../lib/server/config/config";
import { getDb } from "../../../lib/server/data/db";
import { jsonResponse, parseJsonBody, requestMeta } from "../../../lib/server/http/http";
import { sessionCookieHeader } from "../../../lib/server/sessions/session";
import { deviceCookieHeader } from "../../../lib/server/sessions/remembered-device";
import { signIn } from "../../../lib/server/auth/sign-in";
import { beginAccountAttempt, rateLimited } from "../../../lib/server/auth/guards";
import { refuseWhenPasswordAuthDisabled } from "../../../lib/server/auth/password/switch";
import { challengeCookieHeader } from "../../../lib/server/auth/two-factor/sign-in";

export const prerender = false;

export const POST: APIRoute = async ({ request, locals }) => {
  const passwordOff = refuseWhenPasswordAuthDisabled();
  if (passwordOff) return passwordOff;
  const meta = requestMeta(locals, request);
  const attempt = await beginAccountAttempt(getDb(), "sign-in", request, meta);
  if (attempt.refused) return failureResponse(rateLimited());
  const parsed = await parseJsonBody(request, signInRequestSchema);
  if (!parsed.ok) return parsed.response;
  const result = await signIn(getDb(), parsed.data, meta, attempt);
  if (!result.ok) return failureResponse(result);
  const signedIn = result.value;
  if (signedIn.twoFactorChallenge !== undefined) {
    return jsonResponse(
      200,
      { ok: true, next: signedIn.next },
      { "Set-Cookie": challengeCookieHeader(signedIn.twoFactorChallenge, config().secureCookies) },
    );
  }
  const { session, next } = signedIn;
  const response = jsonResponse(200, { ok: true, next });
  response.headers.append("Set-Cookie", sessionCookieHeader(session.token, session.expiresAt, config().secureCookies));
  response.headers.append("Set-Cookie", deviceCookieHeader(session.device, config().secureCookies));
  return response;
};
