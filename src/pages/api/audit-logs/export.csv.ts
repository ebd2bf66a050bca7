import type { APIRoute } from "astro";
import { auditLogsCsv } from "../../../lib/server/audit-export-csv";
import { auditFilterSchema, queryAuditLogs } from "../../../lib/server/audit-query";
import { config } from "../../../lib/server/config";
import { getDb } from "../../../lib/server/db";
import { refuseUnlessAllowed } from "../../../lib/server/guards";
import { jsonResponse } from "../../../lib/server/http";

export const prerender = false;

/** Rows matching the filters (up to 10 000), as CSV. */
export const GET: APIRoute = ({ locals, url }) => {
  const refused = refuseUnlessAllowed(locals, "/audit-logs");
  if (refused) return refused;
  const query = Object.fromEntries(url.searchParams);
  delete query.cursor;
  const parsed = auditFilterSchema.safeParse({ ...query, limit: 500 });
  if (!parsed.success) return jsonResponse(400, { error: parsed.error.issues[0]?.message ?? "Filtro inválido" });
  const db = getDb();
  const rows = [];
  let cursor: string | undefined;
  do {
    const page = queryAuditLogs(db, { ...parsed.data, cursor }, config().tzDisplay);
    rows.push(...page.rows);
    cursor = page.nextCursor ?? undefined;
  } while (cursor && rows.length < 10_000);
  const stamp = new Date().toISOString().slice(0, 10);
  return new Response(auditLogsCsv(rows, config().tzDisplay), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="auditoria-${stamp}.csv"`,
      "Cache-Control": "no-store",
    },
  });
};
