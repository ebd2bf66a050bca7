import type { APIRoute } from "astro";
import { config } from "../../../lib/server/config/config";
import { getDb } from "../../../lib/server/data/db";
import { refuseUnlessAllowed } from "../../../lib/server/http/guards";
import { jsonResponse } from "../../../lib/server/http/http";
import { insightsReport } from "../../../lib/server/insights/report";
import { INSIGHTS_PATH, insightsFilterSchema } from "../../../lib/insights/report";
import { reportQuery } from "../../../lib/reading/report";

export const prerender = false;

/** The Insights report for the filter in the query string (periodo, perfil, pagina). */
export const GET: APIRoute = async ({ locals, url }) => {
  const refused = refuseUnlessAllowed(locals, INSIGHTS_PATH);
  if (refused) return refused;
  const parsed = insightsFilterSchema.safeParse(reportQuery(url.searchParams));
  if (!parsed.success) return jsonResponse(400, { error: parsed.error.issues[0]?.message ?? "Filtro inválido." });
  const result = await insightsReport(getDb(), locals.principal!, parsed.data, config().tzDisplay);
  if (!result.ok) return jsonResponse(400, { error: result.error });
  return jsonResponse(200, result.report);
};
