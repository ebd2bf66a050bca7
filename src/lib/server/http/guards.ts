import { decideAccess, findRoute } from "../../routes.ts";
import { jsonResponse } from "./http.ts";

/**
 * Defence in depth for endpoints: the gate already decided, but each endpoint checks again
 * with the same rule. Returns the response to send when access is refused, else null.
 */
export function refuseUnlessAllowed(locals: App.Locals, pagePath: string): Response | null {
  const route = findRoute(pagePath);
  if (!route) return jsonResponse(404, { error: "Não encontrado" });
  const decision = decideAccess(route, locals.principal);
  if (decision === "sign-in") return jsonResponse(401, { error: "Não autenticado" });
  if (decision === "deny") return jsonResponse(403, { error: "Acesso negado" });
  return null;
}

/** The acting admin for audit rows. */
export function actorOf(locals: App.Locals, request: Request) {
  return { userId: locals.principal!.userId, ipAddress: locals.clientIp, userAgent: request.headers.get("user-agent") };
}
