import type { APIRoute } from "astro";
import { config } from "../../../lib/server/config";
import { getDb } from "../../../lib/server/db";
import { confirmEmail } from "../../../lib/server/email-verification";
import { requestMeta } from "../../../lib/server/http";
import { sessionCookieHeader } from "../../../lib/server/session";

export const prerender = false;

/** The link in the confirmation e-mail: confirms, signs the person in and lands on /. */
export const GET: APIRoute = ({ url, request, locals }) => {
  const result = confirmEmail(getDb(), url.searchParams.get("token") ?? "", requestMeta(locals, request));
  const headers: Record<string, string> = { "Cache-Control": "no-store", Location: "/link-expired?type=email-confirmation" };
  if (result.ok) {
    headers.Location = "/";
    headers["Set-Cookie"] = sessionCookieHeader(result.value.token, result.value.expiresAt, config().secureCookies);
  }
  return new Response(null, { status: 303, headers });
};
