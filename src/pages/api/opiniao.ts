import type { APIRoute } from "astro";
import { rateLimited } from "../../lib/server/auth/guards";
import { failureResponse } from "../../lib/server/auth/result";
import { config } from "../../lib/server/config/config";
import { getDb } from "../../lib/server/data/db";
import { refuseUnlessAllowed } from "../../lib/server/http/guards";
import { jsonResponse, parseJsonBody, requestMeta } from "../../lib/server/http/http";
import { ownVote, recordVote, refuseSignal } from "../../lib/server/insights/feedback";
import { allowFeedback } from "../../lib/server/throttle/memory-limit";
import { feedbackLookupSchema, feedbackVoteSchema } from "../../lib/insights/feedback";
import { reportQuery } from "../../lib/reading/report";

export const prerender = false;

/** The person's own vote on a page version (null when none); 404 when Insights is off or the page is not theirs to open. */
export const GET: APIRoute = async ({ locals, url }) => {
  const refused = refuseUnlessAllowed(locals, "/leitura");
  if (refused) return refused;
  const parsed = feedbackLookupSchema.safeParse(reportQuery(url.searchParams));
  if (!parsed.success) return jsonResponse(400, { error: parsed.error.issues[0]?.message ?? "Parâmetros inválidos." });
  const refusal = refuseSignal(locals.insights, locals.principal!, parsed.data.pagina, parsed.data.versao);
  if (refusal) return jsonResponse(refusal.status, { error: refusal.error });
  return jsonResponse(200, { voto: await ownVote(getDb(), locals.principal!, parsed.data.pagina, parsed.data.versao, config().tzDisplay) });
};

/** 'Esta página ajudou?': records or changes the vote; an optional reason and comment. */
export const POST: APIRoute = async ({ locals, request }) => {
  const refused = refuseUnlessAllowed(locals, "/leitura");
  if (refused) return refused;
  const principal = locals.principal!;
  // Counted in this instance's memory, never in rate_limits: a row naming the account (or its address) at the
  // minute of a vote would link it to the vote's day and page (issue 62).
  if (!allowFeedback(principal.userId, requestMeta(locals, request).ipAddress)) return failureResponse(rateLimited());
  const parsed = await parseJsonBody(request, feedbackVoteSchema);
  if (!parsed.ok) return parsed.response;
  const refusal = refuseSignal(locals.insights, principal, parsed.data.pagina, parsed.data.versao);
  if (refusal) return jsonResponse(refusal.status, { error: refusal.error });
  const result = await recordVote(getDb(), principal, parsed.data, config().tzDisplay);
  return jsonResponse(200, { registrado: true, ...result });
};
