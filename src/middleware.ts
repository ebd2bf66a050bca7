import { defineMiddleware } from "astro:middleware";
import { resolveRequestAuth } from "./lib/server/sessions/request-auth";

/**
 * On-demand routes only (API endpoints). In production the gate has already resolved the
 * session and passes it in `locals`; under `astro dev` this resolves it the same way.
 */
export const onRequest = defineMiddleware(async (context, next) => {
  if (context.isPrerendered) return next();
  if (context.locals.principal === undefined) {
    const auth = await resolveRequestAuth(context.request.headers.get("cookie"));
    context.locals.principal = auth?.principal ?? null;
    context.locals.sessionId = auth?.session.id ?? null;
    context.locals.clientIp = context.clientAddress ?? null;
  }
  return next();
});
