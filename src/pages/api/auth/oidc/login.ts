import type { APIRoute } from "astro";
import { clearStateCookieHeader, stateCookieHeader } from "../../../../lib/server/auth/sso/attempts";
import { config } from "../../../../lib/server/config/config";
import { getDb } from "../../../../lib/server/data/db";
import { jsonResponse, requestMeta } from "../../../../lib/server/http/http";
import { beginSsoSignIn } from "../../../../lib/server/auth/sso/sign-in";

export const prerender = false;

/** 'Entrar com a conta corporativa': off to the identity provider, with `?next=` kept for the way back. */
export const GET: APIRoute = async ({ request, locals, url }) => {
  const { oidc, publicUrl, secureCookies } = config();
  if (!oidc) return jsonResponse(404, { error: "Login corporativo não configurado" });
  const result = await beginSsoSignIn(
    { db: getDb(), settings: oidc, publicUrl, meta: requestMeta(locals, request) },
    url.searchParams.get("next"),
  );
  const headers = new Headers({ "Cache-Control": "no-store" });
  if (result.ok) {
    headers.set("Location", result.value.url);
    headers.append("Set-Cookie", stateCookieHeader(result.value.state, secureCookies));
  } else {
    headers.set("Location", `/auth?sso_error=${result.code}`);
    headers.append("Set-Cookie", clearStateCookieHeader(secureCookies));
  }
  return new Response(null, { status: 302, headers });
};
