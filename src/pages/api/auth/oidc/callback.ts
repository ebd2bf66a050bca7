import type { APIRoute } from "astro";
import { clearStateCookieHeader, OIDC_STATE_COOKIE, readCookie } from "../../../../lib/server/auth/sso/attempts";
import { config } from "../../../../lib/server/config/config";
import { getDb } from "../../../../lib/server/data/db";
import { jsonResponse, requestMeta } from "../../../../lib/server/http/http";
import { completeSsoSignIn } from "../../../../lib/server/auth/sso/sign-in";
import { ssoMarkerCookieHeader } from "../../../../lib/server/auth/sso/sign-out";
import { sessionCookieHeader } from "../../../../lib/server/sessions/session";
import { deviceCookieHeader } from "../../../../lib/server/sessions/remembered-device";

export const prerender = false;

/** The provider's redirect back: signed in → `next`; refused → /auth with the reason in `?sso_error=`. */
export const GET: APIRoute = async ({ request, locals, url }) => {
  const { oidc, publicUrl, secureCookies } = config();
  if (!oidc) return jsonResponse(404, { error: "Login corporativo não configurado" });
  const cookieState = readCookie(request.headers.get("cookie"), OIDC_STATE_COOKIE);
  const ctx = { db: getDb(), settings: oidc, publicUrl, meta: requestMeta(locals, request) };
  const result = await completeSsoSignIn(ctx, url.searchParams, cookieState);
  const headers = new Headers({ "Cache-Control": "no-store" });
  headers.append("Set-Cookie", clearStateCookieHeader(secureCookies));
  if (result.ok) {
    const { session, next } = result.value;
    headers.set("Location", next);
    headers.append("Set-Cookie", sessionCookieHeader(session.token, session.expiresAt, secureCookies));
    headers.append("Set-Cookie", ssoMarkerCookieHeader(session.expiresAt, secureCookies));
    headers.append("Set-Cookie", deviceCookieHeader(session.device, secureCookies));
  } else {
    headers.set("Location", `/auth?sso_error=${result.code}`);
  }
  return new Response(null, { status: 302, headers });
};
