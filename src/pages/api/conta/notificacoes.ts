import type { APIRoute } from "astro";
import { rateLimited } from "../../../lib/server/auth/guards";
import { failureResponse } from "../../../lib/server/auth/result";
import { getDb } from "../../../lib/server/data/db";
import { refuseUnlessAllowed } from "../../../lib/server/http/guards";
import { jsonResponse, parseJsonBody, requestMeta } from "../../../lib/server/http/http";
import { readsDigest, setDigestChoice } from "../../../lib/server/reading/digest-setting";
import { beginAttempt } from "../../../lib/server/throttle/throttle";
import { digestSettingSchema } from "../../../lib/reading/digest-setting";

export const prerender = false;

/** Whether the signed-in person receives the weekly required-reading reminder. */
export const GET: APIRoute = async ({ locals }) => {
  const refused = refuseUnlessAllowed(locals, "/conta/notificacoes");
  if (refused) return refused;
  return jsonResponse(200, { lembreteSemanal: await readsDigest(getDb(), locals.principal!.userId) });
};

/** Turns the weekly reminder on or off. */
export const PUT: APIRoute = async ({ locals, request }) => {
  const refused = refuseUnlessAllowed(locals, "/conta/notificacoes");
  if (refused) return refused;
  const principal = locals.principal!;
  const meta = requestMeta(locals, request);
  const attempt = await beginAttempt(getDb(), "reading-digest-setting", meta);
  if (attempt.refused || (await attempt.forAccount(principal.userId, { userId: principal.userId, email: principal.email }))) {
    return failureResponse(rateLimited());
  }
  const parsed = await parseJsonBody(request, digestSettingSchema);
  if (!parsed.ok) return parsed.response;
  await setDigestChoice(getDb(), principal.userId, parsed.data.lembreteSemanal, meta);
  return jsonResponse(200, { lembreteSemanal: parsed.data.lembreteSemanal });
};
