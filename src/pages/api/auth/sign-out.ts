import type { APIRoute } from "astro";
import { writeAuditLog } from "../../../lib/server/audit";
import { config } from "../../../lib/server/config";
import { getDb } from "../../../lib/server/db";
import { deleteSessionCookieHeader, invalidateSession } from "../../../lib/server/session";

export const prerender = false;

/** 'Sair': ends the session, clears the cookie and returns to the landing page. */
export const POST: APIRoute = ({ locals, request }) => {
  const db = getDb();
  if (locals.sessionId && locals.principal) {
    invalidateSession(db, locals.sessionId);
    writeAuditLog(db, {
      userId: locals.principal.userId,
      actionType: "user_logout",
      result: "success",
      details: { email: locals.principal.email },
      ipAddress: locals.clientIp,
      userAgent: request.headers.get("user-agent"),
    });
  }
  return new Response(null, {
    status: 303,
    headers: {
      Location: "/",
      "Set-Cookie": deleteSessionCookieHeader(config().secureCookies),
      "Cache-Control": "no-store",
    },
  });
};
