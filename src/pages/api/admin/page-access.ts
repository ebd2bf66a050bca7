import type { APIRoute } from "astro";
import { pageAccessSchema } from "../../../lib/admin/forms";
import { listPageAccess, setPageAccess } from "../../../lib/server/admin/page-access";
import { refusalBody } from "../../../lib/server/admin/result";
import { getDb } from "../../../lib/server/data/db";
import { actorOf, refuseUnlessAllowed } from "../../../lib/server/http/guards";
import { jsonResponse, parseJsonBody } from "../../../lib/server/http/http";

export const prerender = false;

/** 'Quem pode abrir esta página': every page whose audience the panel may set, with default and current audience. */
export const GET: APIRoute = async ({ locals }) => {
  const refused = refuseUnlessAllowed(locals, "/admin-panel");
  if (refused) return refused;
  return jsonResponse(200, { pages: await listPageAccess(getDb()) });
};

/** Restricts a page to chosen roles (`roles: [...]`) or restores its default (`roles: null`), if still at `version`. */
export const PUT: APIRoute = async ({ locals, request }) => {
  const refused = refuseUnlessAllowed(locals, "/admin-panel");
  if (refused) return refused;
  const parsed = await parseJsonBody(request, pageAccessSchema);
  if (!parsed.ok) return parsed.response;
  const result = await setPageAccess(getDb(), parsed.data, actorOf(locals, request));
  if (!result.ok) return jsonResponse(result.status, refusalBody(result));
  const message = parsed.data.roles === null ? "Acesso padrão restaurado" : "Acesso à página atualizado";
  return jsonResponse(200, { version: result.value.version, message });
};
