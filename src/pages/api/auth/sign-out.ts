import type { APIRoute } from "astro";
import { writeAuditLog } from "../../../lib/server/audit/audit";
import { config } from "../../../lib/server/config/config";
import { getDb } from "../../../lib/server/data/db";
import { deleteSessionCookieHeader, invalidateSession } from "../../../lib/server/sessions/session";
import { clearSsoMarkerCookieHeader, ssoSignOutLocation } from "../../../lib/server/auth/sso/sign-out";

export const prerender = false;

/** 'Sair': ends the session, clears the cookie and returns to the landing page (or to the provider's sign-out, see OIDC_LOGOUT). */
export const POST: APIRoute = async ({ locals, request }) => {
  const db = getDb();
  if (locals.sessionId && locals.principal) {
    await invalidateSession(db, locals.sessionId);
    await writeAuditLog(db, {
      userId: locals.principal.userId,
      actionType: "user_logout",
      result: "success",
      details: { email: locals.principal.email },
      ipAddress: locals.clientIp,
      userAgent: request.headers.get("user-agent"),
    });
  }
  const { oidc, publicUrl, secureCookies } = config();
  const headers = new Headers({ "Cache-Control": "no-store" });
  headers.append("Set-Cookie", deleteSessionCookieHeader(secureCookies));
  // Corporate sign-in: also end the provider's session when configured.
  headers.set("Location", (await ssoSignOutLocation(oidc, publicUrl, request.headers.get("cookie"))) ?? "/");
  headers.append("Set-Cookie", clearSsoMarkerCookieHeader(secureCookies));
  return new Response(null, { status: 303, headers });
};
