import type { APIRoute } from "astro";
import { auditFilterSchema, auditUserLabel } from "../../../lib/server/audit/query";
import { readAuditPage } from "../../../lib/server/audit/reader";
import { config } from "../../../lib/server/config/config";
import { refuseUnlessAllowed } from "../../../lib/server/http/guards";
import { jsonResponse } from "../../../lib/server/http/http";

export const prerender = false;

/** Audit rows, newest first, filtered and keyset-paged; read on a worker thread. */
export const GET: APIRoute = async ({ locals, url }) => {
  const refused = refuseUnlessAllowed(locals, "/audit-logs");
  if (refused) return refused;
  const parsed = auditFilterSchema.safeParse(Object.fromEntries(url.searchParams));
  if (!parsed.success) return jsonResponse(400, { error: parsed.error.issues[0]?.message ?? "Filtro inválido" });
  const { databasePath, tzDisplay } = config();
  const { rows, nextCursor } = await readAuditPage(parsed.data, databasePath, tzDisplay);
  return jsonResponse(200, {
    rows: rows.map((row) => ({ ...row, userLabel: auditUserLabel(row) })),
    nextCursor,
    timeZone: tzDisplay,
  });
};
