import type { APIRoute } from "astro";
import { getDb } from "../../../../../lib/server/data/db";
import { refuseUnlessAllowed } from "../../../../../lib/server/http/guards";
import { jsonResponse } from "../../../../../lib/server/http/http";
import { personReading } from "../../../../../lib/server/reading/report";
import { READING_REPORT_PATH } from "../../../../../lib/reading/report";

export const prerender = false;

/** One person's pending pages, among those the viewer may open. */
export const GET: APIRoute = async ({ locals, params }) => {
  const refused = refuseUnlessAllowed(locals, READING_REPORT_PATH);
  if (refused) return refused;
  const person = params.id && params.id.length <= 100 ? await personReading(getDb(), locals.principal!, params.id) : null;
  return person ? jsonResponse(200, person) : jsonResponse(404, { error: "Pessoa não encontrada no relatório." });
};
