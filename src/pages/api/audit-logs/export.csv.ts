import type { APIRoute } from "astro";
import { CSV_SEPARATORS, type CsvSeparator } from "../../../lib/server/audit/export-csv";
import { auditFilterSchema } from "../../../lib/server/audit/query";
import { streamAuditCsv } from "../../../lib/server/audit/reader";
import { config } from "../../../lib/server/config/config";
import { refuseUnlessAllowed } from "../../../lib/server/http/guards";
import { jsonResponse } from "../../../lib/server/http/http";

export const prerender = false;

/** Every row matching the filters, as CSV streamed from a worker thread. */
export const GET: APIRoute = ({ locals, url }) => {
  const refused = refuseUnlessAllowed(locals, "/audit-logs");
  if (refused) return refused;
  const query = Object.fromEntries(url.searchParams);
  delete query.cursor;
  delete query.limit;
  const separator = query.sep ?? ",";
  delete query.sep;
  if (!(CSV_SEPARATORS as readonly string[]).includes(separator)) return jsonResponse(400, { error: "Separador inválido: use , ou ;" });
  const parsed = auditFilterSchema.safeParse(query);
  if (!parsed.success) return jsonResponse(400, { error: parsed.error.issues[0]?.message ?? "Filtro inválido" });
  const { databasePath, tzDisplay } = config();
  const body = streamAuditCsv(parsed.data, databasePath, tzDisplay, locals.responseFlow, separator as CsvSeparator);
  if (!body)
    return jsonResponse(429, { error: "Há exportações demais em andamento. Tente novamente em instantes." }, { "Retry-After": "10" });
  const stamp = new Date().toISOString().slice(0, 10);
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="auditoria-${stamp}.csv"`,
      "Cache-Control": "no-store",
    },
  });
};
