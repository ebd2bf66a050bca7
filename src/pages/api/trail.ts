import type { APIRoute } from "astro";
import { getDb } from "../../lib/server/data/db";
import { refuseUnlessAllowed } from "../../lib/server/http/guards";
import { jsonResponse, parseJsonBody } from "../../lib/server/http/http";
import { readTrail, saveTrail } from "../../lib/server/trail/store";
import { TRAIL_PHASE_IDS, sanitizeAnswers, sanitizeCompleted } from "../../lib/trail/trail";
import { trailBodySchema } from "../../lib/trail/schema";

export const prerender = false;

/** The signed-in user's trail, so it follows them to another browser. */
export const GET: APIRoute = async ({ locals }) => {
  const refused = refuseUnlessAllowed(locals, "/trilha-interativa");
  if (refused) return refused;
  const owner = locals.principal!.userId;
  return jsonResponse(200, { trail: await readTrail(getDb(), owner), owner });
};

export const PUT: APIRoute = async ({ locals, request }) => {
  const refused = refuseUnlessAllowed(locals, "/trilha-interativa");
  if (refused) return refused;
  const parsed = await parseJsonBody(request, trailBodySchema);
  if (!parsed.ok) return parsed.response;
  if (parsed.data.owner !== undefined && parsed.data.owner !== locals.principal!.userId) {
    return jsonResponse(409, { error: "Esta trilha foi aberta por outra conta. Recarregue a página." });
  }
  const unknown = [...parsed.data.completed, ...Object.keys(parsed.data.answers)].find(
    (id) => !(TRAIL_PHASE_IDS as readonly string[]).includes(id),
  );
  if (unknown) return jsonResponse(400, { error: `Fase desconhecida: ${unknown}` });
  const state = {
    completed: sanitizeCompleted(parsed.data.completed, TRAIL_PHASE_IDS),
    answers: sanitizeAnswers(parsed.data.answers, TRAIL_PHASE_IDS),
    projectName: parsed.data.projectName,
    updatedAt: parsed.data.updatedAt,
  };
  await saveTrail(getDb(), locals.principal!.userId, state);
  return jsonResponse(200, { ok: true });
};
