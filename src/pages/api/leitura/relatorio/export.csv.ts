import type { APIRoute } from "astro";
import { config } from "../../../../lib/server/config/config";
import { getDb } from "../../../../lib/server/data/db";
import { refuseUnlessAllowed } from "../../../../lib/server/http/guards";
import { jsonResponse } from "../../../../lib/server/http/http";
import { csvSeparatorOf } from "../../../../lib/server/platform/csv";
import { resolveReportFilter } from "../../../../lib/server/reading/report";
import { streamReportCsv } from "../../../../lib/server/reading/report-csv";
import { READING_REPORT_PATH, readingReportFilterSchema, reportQuery } from "../../../../lib/reading/report";

export const prerender = false;

/** Every person the filter matches (not one page of them), as CSV. */
export const GET: APIRoute = async ({ locals, url }) => {
  const refused = refuseUnlessAllowed(locals, READING_REPORT_PATH);
  if (refused) return refused;
  const separator = csvSeparatorOf(url.searchParams.get("sep"));
  if (!separator) return jsonResponse(400, { error: "Separador inválido: use , ou ;" });
  const parsed = readingReportFilterSchema.safeParse(reportQuery(url.searchParams, ["sep", "apos"]));
  if (!parsed.success) return jsonResponse(400, { error: parsed.error.issues[0]?.message ?? "Filtro inválido" });
  const resolved = await resolveReportFilter(getDb(), locals.principal!, parsed.data);
  if (!resolved.ok) return jsonResponse(400, { error: resolved.error });
  if (!resolved.query) return jsonResponse(404, { error: "Nenhuma página de leitura obrigatória no relatório." });
  const slug = resolved.query.page.path.replace(/[^a-z0-9]+/gi, "-").replace(/^-|-$/g, "") || "pagina";
  const stamp = new Date().toISOString().slice(0, 10);
  return new Response(streamReportCsv(getDb(), resolved.query, config().tzDisplay, separator), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="leitura-${slug}-v${resolved.query.version}-${stamp}.csv"`,
      "Cache-Control": "no-store",
    },
  });
};
