import type { APIRoute } from "astro";
import { getDb } from "../../../lib/server/data/db";
import { refuseUnlessAllowed } from "../../../lib/server/http/guards";
import { jsonResponse } from "../../../lib/server/http/http";
import { confirmationsOf } from "../../../lib/server/reading/confirmations";
import { readingStatusFor } from "../../../lib/server/reading/status";

export const prerender = false;

/** The signed-in person's required pages (only those they may open) and what they confirmed. */
export const GET: APIRoute = async ({ locals }) => {
  const refused = refuseUnlessAllowed(locals, "/leitura");
  if (refused) return refused;
  return jsonResponse(200, await readingStatusFor(locals.principal!, (userId) => confirmationsOf(getDb(), userId)));
};
