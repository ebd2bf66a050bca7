import type { APIRoute } from "astro";
import { config } from "../../../../lib/server/config/config";
import { getDb } from "../../../../lib/server/data/db";
import { refuseUnlessAllowed } from "../../../../lib/server/http/guards";
import { jsonResponse } from "../../../../lib/server/http/http";
import { readingReport } from "../../../../lib/server/reading/report";
import { READING_REPORT_PATH, readingReportFilterSchema, reportQuery } from "../../../../lib/reading/report";

export const prerender = false;

/** Totals per required page the viewer may open, and one keyset page of people for the filter. */
export const GET: APIRoute = async ({ locals, url }) => {
  const refused = refuseUnlessAllowed(locals, READING_REPORT_PATH);
  if (refused) return refused;
  const parsed = readingReportFilterSchema.safeParse(reportQuery(url.searchParams));
  if (!parsed.success) return jsonResponse(400, { error: parsed.error.issues[0]?.message ?? "Filtro inválido" });
  const result = await readingReport(getDb(), locals.principal!, parsed.data, config().tzDisplay);
  if (result.ok) return jsonResponse(200, result.report);
  return jsonResponse(result.status, { error: result.error }, result.status === 503 ? { "Retry-After": "3" } : {});
};
