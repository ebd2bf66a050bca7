import type { APIRoute } from "astro";
import { clearStateCookieHeader, readStateCookie } from "../../../../lib/server/auth/sso/attempts";
import { config } from "../../../../lib/server/config/config";
import { getDb } from "../../../../lib/server/data/db";
import { jsonResponse, requestMeta } from "../../../../lib/server/http/http";
import { completeSsoSignIn } from "../../../../lib/server/auth/sso/sign-in";
import { ssoMarkerCookieHeader } from "../../../../lib/server/auth/sso/sign-out";
import { sessionCookieHeader } from "../../../../lib/server/sessions/session";
import { challengeCookieHeader } from "../../../../lib/server/auth/two-factor/sign-in";
import { deviceCookieHeader } from "../../../../lib/server/sessions/remembered-device";

export const prerender = false;

/** The provider's redirect back: signed in → `next`; second factor on file → its code page; refused → /auth with the reason in `?sso_error=`. */
export const GET: APIRoute = async ({ request, locals, url }) => {
  const { oidc, publicUrl, secureCookies, sessionMaxLifetimeMs } = config();
  if (!oidc) return jsonResponse(404, { error: "Login corporativo não configurado" });
  const cookieState = readStateCookie(request.headers.get("cookie"), secureCookies);
  const ctx = { db: getDb(), settings: oidc, publicUrl, meta: requestMeta(locals, request) };
  const result = await completeSsoSignIn(ctx, url.searchParams, cookieState);
  const headers = new Headers({ "Cache-Control": "no-store" });
  headers.append("Set-Cookie", clearStateCookieHeader(secureCookies));
  if (result.ok) {
    const { session, twoFactorChallenge, next } = result.value;
    headers.set("Location", next);
    if (session) {
      headers.append("Set-Cookie", sessionCookieHeader(session.token, session.expiresAt, secureCookies));
      headers.append("Set-Cookie", ssoMarkerCookieHeader(session.expiresAt, secureCookies));
      headers.append("Set-Cookie", deviceCookieHeader(session.device, secureCookies));
    } else {
      headers.append("Set-Cookie", challengeCookieHeader(twoFactorChallenge, secureCookies));
      // The session the code will open comes from the provider: 'Sair' must end the provider's session too.
      headers.append("Set-Cookie", ssoMarkerCookieHeader(Date.now() + sessionMaxLifetimeMs, secureCookies));
    }
  } else {
    headers.set("Location", `/auth?sso_error=${result.code}`);
  }
  return new Response(null, { status: 302, headers });
};
