import type { APIRoute } from "astro";
import { z } from "zod";
import { rateLimited } from "../../../lib/server/auth/guards";
import { beginAttempt } from "../../../lib/server/throttle/throttle";
import { failureResponse } from "../../../lib/server/auth/result";
import { getDb } from "../../../lib/server/data/db";
import { jsonResponse, parseJsonBody, requestMeta } from "../../../lib/server/http/http";
import { signUp } from "../../../lib/server/auth/sign-up";
import { refuseWhenPasswordAuthDisabled } from "../../../lib/server/auth/password/switch";

export const prerender = false;

export const POST: APIRoute = async ({ request, locals }) => {
  const passwordOff = refuseWhenPasswordAuthDisabled();
  if (passwordOff) return passwordOff;
  const meta = requestMeta(locals, request);
  const attempt = await beginAttempt(getDb(), "sign-up", meta);
  if (attempt.refused) return failureResponse(rateLimited());
  // The domain validates the fields itself, so a weak password gets its own code.
  const parsed = await parseJsonBody(request, z.unknown());
  if (!parsed.ok) return parsed.response;
  const result = await signUp(getDb(), parsed.data, meta);
  return result.ok ? jsonResponse(201, { ok: true }) : failureResponse(result);
};
