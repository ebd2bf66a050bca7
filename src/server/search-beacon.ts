/**
 * The search dialog's beacon (navigator.sendBeacon, once per finished search), answered by the gate
 * itself (gate.ts) after its usual checks (session, the page rule of /api/busca, same origin, body
 * size): counted in memory and written with the instance's next flush. At most BEACONS_PER_MINUTE
 * per person and instance, whatever number of sessions the person holds (issue 62: per session, one
 * person with 10 sessions stored 300 a minute). The allowance is kept in memory only, never in
 * `rate_limits` or any row. 204 when counted; a refusal stores nothing.
 */
import { normaliseQuery, queryProblem, searchBeaconSchema } from "../lib/insights/query.ts";
import { parseJsonText } from "../lib/server/http/http.ts";
import { BEACONS_PER_MINUTE, type InsightsCollector } from "../lib/server/insights/collector.ts";
import { INSIGHTS_OFF } from "../lib/server/insights/feedback.ts";

export const SEARCH_BEACON_PATH = "/api/busca";

export interface BeaconAnswer {
  status: number;
  /** The JSON body of a refusal (none for 204). */
  body?: { error: string; fields?: Record<string, string> };
  headers?: Record<string, string>;
}

/** Answers one beacon: `readBody` is called only once the session may send it (null: the body was too large). */
export async function answerSearchBeacon(
  collector: InsightsCollector | undefined,
  userId: string,
  readBody: () => Promise<string | null>,
): Promise<BeaconAnswer> {
  if (!collector?.enabled) return { status: 404, body: { error: INSIGHTS_OFF } };
  if (!collector.allowBeacon(userId)) {
    return {
      status: 429,
      body: { error: `Buscas demais em pouco tempo (máximo de ${BEACONS_PER_MINUTE} por minuto).` },
      headers: { "Retry-After": "60" },
    };
  }
  const parsed = parseJsonText(await readBody(), searchBeaconSchema);
  if (!parsed.ok) return { status: parsed.status, body: parsed.body };
  const problem = queryProblem(parsed.data.consulta);
  if (problem) return { status: 400, body: { error: problem } };
  const { resultados, aberto } = parsed.data;
  if (aberto !== null && aberto > resultados) return { status: 400, body: { error: "Posição inválida." } };
  collector.recordSearch(userId, { query: normaliseQuery(parsed.data.consulta), results: resultados, opened: aberto });
  return { status: 204 };
}
