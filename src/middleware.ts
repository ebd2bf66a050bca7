import { randomUUID } from "node:crypto";
import { defineMiddleware } from "astro:middleware";
import { failureResponse } from "./lib/server/http/failure";
import { logger } from "./lib/server/platform/logger";
import { resolveRequestAuth } from "./lib/server/sessions/request-auth";

/**
 * On-demand routes only (API endpoints). In production the gate has already resolved the
 * session and passes it in `locals`; under `astro dev` this resolves it the same way. An endpoint
 * that throws answers JSON here (503 while the database is away, else 500 with the request id),
 * never Astro's HTML error page.
 */
export const onRequest = defineMiddleware(async (context, next) => {
  if (context.isPrerendered) return next();
  const { locals, request } = context;
  locals.requestId ??= randomUUID();
  try {
    if (locals.principal === undefined) {
      const auth = await resolveRequestAuth(request.headers.get("cookie"));
      locals.principal = auth?.principal ?? null;
      locals.sessionId = auth?.session.id ?? null;
      locals.clientIp = context.clientAddress ?? null;
    }
    return await next();
  } catch (error) {
    return failureResponse(logger(), error, { reqId: locals.requestId, method: request.method, path: context.url.pathname });
  }
});
