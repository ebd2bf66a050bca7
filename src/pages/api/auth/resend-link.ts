import type { APIRoute } from "astro";
import { resendLinkSchema } from "../../../lib/auth-schemas";
import { refuseWhenIpRateLimited } from "../../../lib/server/auth-guards";
import { failureResponse } from "../../../lib/server/auth-result";
import { getDb } from "../../../lib/server/db";
import { resendLink } from "../../../lib/server/email-verification";
import { jsonResponse, parseJsonBody, requestMeta } from "../../../lib/server/http";
import { refuseWhenPasswordAuthDisabled } from "../../../lib/server/password-auth";

export const prerender = false;

export const POST: APIRoute = async ({ request, locals }) => {
  const passwordOff = refuseWhenPasswordAuthDisabled();
  if (passwordOff) return passwordOff;
  const meta = requestMeta(locals, request);
  const refused = await refuseWhenIpRateLimited(getDb(), "resend-link", meta);
  if (refused) return failureResponse(refused);
  const parsed = await parseJsonBody(request, resendLinkSchema);
  if (!parsed.ok) return parsed.response;
  const result = await resendLink(getDb(), parsed.data, meta);
  return result.ok ? jsonResponse(200, { ok: true, type: parsed.data.type }) : failureResponse(result);
};
