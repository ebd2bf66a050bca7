import type { APIRoute } from "astro";
import { resendLinkSchema } from "../../../lib/auth/schemas";
import { beginAccountAttempt, rateLimited } from "../../../lib/server/auth/guards";
import { failureResponse } from "../../../lib/server/auth/result";
import { getDb } from "../../../lib/server/data/db";
import { resendLink } from "../../../lib/server/auth/email-verification";
import { jsonResponse, parseJsonBody, requestMeta } from "../../../lib/server/http/http";
import { refuseWhenPasswordAuthDisabled } from "../../../lib/server/auth/password/switch";

export const prerender = false;

export const POST: APIRoute = async ({ request, locals }) => {
  const passwordOff = refuseWhenPasswordAuthDisabled();
  if (passwordOff) return passwordOff;
  const meta = requestMeta(locals, request);
  const attempt = await beginAccountAttempt(getDb(), "resend-link", request, meta);
  if (attempt.refused) return failureResponse(rateLimited());
  const parsed = await parseJsonBody(request, resendLinkSchema);
  if (!parsed.ok) return parsed.response;
  const result = await resendLink(getDb(), parsed.data, meta, attempt);
  return result.ok ? jsonResponse(200, { ok: true, type: parsed.data.type }) : failureResponse(result);
};
