import type { APIRoute } from "astro";
import { config } from "../../../lib/server/config/config";
import { getDb } from "../../../lib/server/data/db";
import { refuseUnlessAllowed } from "../../../lib/server/http/guards";
import { jsonResponse } from "../../../lib/server/http/http";
import { csvSeparatorOf } from "../../../lib/server/platform/csv";
import { insightsReport } from "../../../lib/server/insights/report";
import { tableCsv } from "../../../lib/server/insights/report-csv";
import { INSIGHTS_PATH, insightsFilterSchema, TABLES, type InsightsTable } from "../../../lib/insights/report";
import { reportQuery } from "../../../lib/reading/report";

export const prerender = false;

/** One table of the report (`tabela`), for the same filter, as CSV (`sep` = , or ;). */
export const GET: APIRoute = async ({ locals, url }) => {
  const refused = refuseUnlessAllowed(locals, INSIGHTS_PATH);
  if (refused) return refused;
  const separator = csvSeparatorOf(url.searchParams.get("sep"));
  if (!separator) return jsonResponse(400, { error: "Separador inválido: use , ou ;" });
  const table = url.searchParams.get("tabela") ?? "";
  if (!(TABLES as readonly string[]).includes(table)) return jsonResponse(400, { error: "Tabela inválida." });
  const parsed = insightsFilterSchema.safeParse(reportQuery(url.searchParams, ["sep", "tabela"]));
  if (!parsed.success) return jsonResponse(400, { error: parsed.error.issues[0]?.message ?? "Filtro inválido." });
  const result = await insightsReport(getDb(), locals.principal!, parsed.data, config().tzDisplay);
  if (!result.ok) return jsonResponse(400, { error: result.error });
  const stamp = new Date().toISOString().slice(0, 10);
  return new Response(tableCsv(result.report, table as InsightsTable, separator), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="insights-${table}-${parsed.data.periodo}d-${stamp}.csv"`,
      "Cache-Control": "no-store",
    },
  });
};
