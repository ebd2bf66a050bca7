import type { APIRoute } from "astro";
import { confirmUserEmail } from "../../../lib/server/accounts";
import { config } from "../../../lib/server/config";
import { getDb } from "../../../lib/server/db";
import { consumeEmailToken } from "../../../lib/server/email-tokens";
import { requestMeta } from "../../../lib/server/http";
import { createSession, sessionCookieHeader } from "../../../lib/server/session";

export const prerender = false;

/** The link in the confirmation e-mail: confirms, signs the person in and lands on /. */
export const GET: APIRoute = ({ url, request, locals }) => {
  const db = getDb();
  const result = consumeEmailToken(db, url.searchParams.get("token") ?? "", "email_confirmation");
  if (!result.ok) {
    return new Response(null, { status: 303, headers: { Location: "/link-expired?type=email-confirmation", "Cache-Control": "no-store" } });
  }
  const meta = requestMeta(locals, request);
  confirmUserEmail(db, result.userId, meta);
  const session = createSession(db, result.userId, meta);
  return new Response(null, {
    status: 303,
    headers: {
      Location: "/",
      "Cache-Control": "no-store",
      "Set-Cookie": sessionCookieHeader(session.token, session.expiresAt, config().publicUrl.startsWith("https://")),
    },
  });
};
