import type { APIRoute } from "astro";
import { twoFactorCodeSchema } from "../../../lib/auth/two-factor-forms";
import { failureResponse } from "../../../lib/server/auth/result";
import { config } from "../../../lib/server/config/config";
import { getDb } from "../../../lib/server/data/db";
import { parseJsonBody, requestMeta } from "../../../lib/server/http/http";
import { sessionCookieHeader } from "../../../lib/server/sessions/session";
import { deviceCookieHeader } from "../../../lib/server/sessions/remembered-device";
import { beginAccountAttempt, rateLimited } from "../../../lib/server/auth/guards";
import { clearChallengeCookieHeader, completeTwoFactorSignIn, readChallengeCookie } from "../../../lib/server/auth/two-factor/sign-in";

export const prerender = false;

/** The code after the password: the pending challenge (cookie) + a TOTP or recovery code → a session. */
export const POST: APIRoute = async ({ request, locals }) => {
  const meta = requestMeta(locals, request);
  const attempt = await beginAccountAttempt(getDb(), "two-factor", request, meta);
  if (attempt.refused) return failureResponse(rateLimited());
  const parsed = await parseJsonBody(request, twoFactorCodeSchema);
  if (!parsed.ok) return parsed.response;
  const { twoFactor, secureCookies } = config();
  const token = readChallengeCookie(request.headers.get("cookie"));
  const result = await completeTwoFactorSignIn(getDb(), twoFactor.key, token, parsed.data.code, meta, attempt);
  if (!result.ok) {
    const response = failureResponse(result);
    if (result.code === "challenge_expired") response.headers.append("Set-Cookie", clearChallengeCookieHeader(secureCookies));
    return response;
  }
  const { session, next } = result.value;
  const headers = new Headers({ "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store" });
  headers.append("Set-Cookie", sessionCookieHeader(session.token, session.expiresAt, secureCookies));
  headers.append("Set-Cookie", clearChallengeCookieHeader(secureCookies));
  headers.append("Set-Cookie", deviceCookieHeader(session.device, secureCookies));
  return new Response(JSON.stringify({ ok: true, next }), { status: 200, headers });
};
