import type { APIRoute } from "astro";
import { confirmEmailSchema } from "../../../lib/auth/schemas";
import { failureResponse } from "../../../lib/server/auth/result";
import { getDb } from "../../../lib/server/data/db";
import { confirmEmail, isLiveConfirmationLink } from "../../../lib/server/auth/email-verification";
import { jsonResponse, parseJsonBody, requestMeta } from "../../../lib/server/http/http";
import { rateLimited } from "../../../lib/server/auth/guards";
import { beginAttempt } from "../../../lib/server/throttle/throttle";

export const prerender = false;

/** The link in the confirmation e-mail opens the form that asks for the sign-up password; it changes nothing. */
export const GET: APIRoute = async ({ url }) => {
  const token = url.searchParams.get("token") ?? "";
  const location = (await isLiveConfirmationLink(getDb(), token))
    ? `/auth?mode=confirm&token=${token}`
    : "/link-expired?type=email-confirmation";
  return new Response(null, { status: 303, headers: { Location: location, "Cache-Control": "no-store" } });
};

/** Link token + sign-up password → address confirmed; never a session (the person then signs in). */
export const POST: APIRoute = async ({ request, locals }) => {
  const meta = requestMeta(locals, request);
  const attempt = await beginAttempt(getDb(), "confirm-email", meta);
  if (attempt.refused) return failureResponse(rateLimited());
  const parsed = await parseJsonBody(request, confirmEmailSchema);
  if (!parsed.ok) return parsed.response;
  const result = await confirmEmail(getDb(), parsed.data, meta, attempt);
  return result.ok ? jsonResponse(200, { ok: true }) : failureResponse(result);
};
