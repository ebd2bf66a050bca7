import type { APIRoute } from "astro";
import { resetRequestSchema } from "../../../lib/auth/schemas";
import { beginAccountAttempt, rateLimited } from "../../../lib/server/auth/guards";
import { failureResponse } from "../../../lib/server/auth/result";
import { getDb } from "../../../lib/server/data/db";
import { jsonResponse, parseJsonBody, requestMeta } from "../../../lib/server/http/http";
import { requestPasswordReset } from "../../../lib/server/auth/password-reset";
import { refuseWhenPasswordAuthDisabled } from "../../../lib/server/auth/password/switch";

export const prerender = false;

export const POST: APIRoute = async ({ request, locals }) => {
  const passwordOff = refuseWhenPasswordAuthDisabled();
  if (passwordOff) return passwordOff;
  const meta = requestMeta(locals, request);
  const attempt = await beginAccountAttempt(getDb(), "reset-request", request, meta);
  if (attempt.refused) return failureResponse(rateLimited());
  const parsed = await parseJsonBody(request, resetRequestSchema);
  if (!parsed.ok) return parsed.response;
  const result = await requestPasswordReset(getDb(), parsed.data, meta, attempt);
  return result.ok ? jsonResponse(200, { ok: true }) : failureResponse(result);
};
