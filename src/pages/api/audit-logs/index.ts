import type { APIRoute } from "astro";
import { auditFilterSchema, auditUserLabel, queryAuditLogs } from "../../../lib/server/audit-query";
import { config } from "../../../lib/server/config";
import { getDb } from "../../../lib/server/db";
import { refuseUnlessAllowed } from "../../../lib/server/guards";
import { jsonResponse } from "../../../lib/server/http";

export const prerender = false;

/** Audit rows, newest first, filtered and keyset-paged. */
export const GET: APIRoute = ({ locals, url }) => {
  const refused = refuseUnlessAllowed(locals, "/audit-logs");
  if (refused) return refused;
  const parsed = auditFilterSchema.safeParse(Object.fromEntries(url.searchParams));
  if (!parsed.success) return jsonResponse(400, { error: parsed.error.issues[0]?.message ?? "Filtro inválido" });
  const { rows, nextCursor } = queryAuditLogs(getDb(), parsed.data, config().tzDisplay);
  return jsonResponse(200, {
    rows: rows.map((row) => ({ ...row, userLabel: auditUserLabel(row) })),
    nextCursor,
    timeZone: config().tzDisplay,
  });
};
