import type { APIRoute } from "astro";
import { refuseUnlessAllowed } from "../../lib/server/http/guards";
import { jsonResponse, parseJsonBody } from "../../lib/server/http/http";
import { INSIGHTS_OFF } from "../../lib/server/insights/feedback";
import { BEACONS_PER_MINUTE } from "../../lib/server/insights/collector";
import { normaliseQuery, queryProblem, searchBeaconSchema } from "../../lib/insights/query";

export const prerender = false;

/**
 * The search dialog's beacon (navigator.sendBeacon, once per finished search): counted in memory and
 * written with the instance's next flush. Same origin (the gate's Origin check), a session, at most
 * BEACONS_PER_MINUTE per session and instance. Answers 204; a refusal stores nothing.
 */
export const POST: APIRoute = async ({ locals, request }) => {
  const refused = refuseUnlessAllowed(locals, "/leitura");
  if (refused) return refused;
  const collector = locals.insights;
  if (!collector?.enabled) return jsonResponse(404, { error: INSIGHTS_OFF });
  if (!collector.allowBeacon(locals.sessionId ?? locals.principal!.userId)) {
    return jsonResponse(
      429,
      { error: `Buscas demais em pouco tempo (máximo de ${BEACONS_PER_MINUTE} por minuto).` },
      { "Retry-After": "60" },
    );
  }
  const parsed = await parseJsonBody(request, searchBeaconSchema);
  if (!parsed.ok) return parsed.response;
  const problem = queryProblem(parsed.data.consulta);
  if (problem) return jsonResponse(400, { error: problem });
  const { resultados, aberto } = parsed.data;
  if (aberto !== null && aberto > resultados) return jsonResponse(400, { error: "Posição inválida." });
  collector.recordSearch(locals.principal!.userId, { query: normaliseQuery(parsed.data.consulta), results: resultados, opened: aberto });
  return new Response(null, { status: 204, headers: { "Cache-Control": "no-store" } });
};
