import type { APIRoute } from "astro";
import { getDb } from "../../../lib/server/data/db";
import { refuseUnlessAllowed } from "../../../lib/server/http/guards";
import { jsonResponse } from "../../../lib/server/http/http";
import { newsManifest, recordNewsVisit } from "../../../lib/server/reading/news";
import { newsPageFor } from "../../../lib/reading/news";

export const prerender = false;

/**
 * Content changes the person may see, newest first, 20 at a time (`?antes=<id>` for older ones).
 * The first page also records this visit and returns the one before, so the page marks what is new.
 */
export const GET: APIRoute = async ({ locals, url }) => {
  const refused = refuseUnlessAllowed(locals, "/novidades");
  if (refused) return refused;
  const before = url.searchParams.get("antes");
  if (before !== null && !/^[0-9a-f]{1,40}:\/[\w/-]*$/.test(before)) return jsonResponse(400, { error: "Parâmetro 'antes' inválido" });
  const page = newsPageFor(newsManifest().items, locals.principal!, before);
  const ultimaVisita = before === null ? await recordNewsVisit(getDb(), locals.principal!.userId) : undefined;
  return jsonResponse(200, { ...page, ...(ultimaVisita !== undefined ? { ultimaVisita } : {}) });
};
