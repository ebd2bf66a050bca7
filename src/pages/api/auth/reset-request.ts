import type { APIRoute } from "astro";
import { resetRequestSchema } from "../../../lib/forms";
import { sendPasswordResetLink } from "../../../lib/server/accounts";
import { DOMAIN_MESSAGE, isAllowedEmail } from "../../../lib/server/allowed-email";
import { writeAuditLog } from "../../../lib/server/audit";
import { getDb } from "../../../lib/server/db";
import { jsonResponse, parseJsonBody, requestMeta } from "../../../lib/server/http";
import { consumeRateLimit, LIMITS, RATE_LIMIT_MESSAGE } from "../../../lib/server/rate-limit";
import { getUserByEmail, normalizeEmail } from "../../../lib/server/user";

export const prerender = false;

/** Reset request: the same answer whether or not the account exists (no enumeration). */
export const POST: APIRoute = async ({ request, locals }) => {
  const db = getDb();
  const meta = requestMeta(locals, request);
  const parsed = await parseJsonBody(request, resetRequestSchema);
  if (!parsed.ok) return parsed.response;
  const email = normalizeEmail(parsed.data.email);
  if (!consumeRateLimit(`mail:ip:${locals.clientIp}`, LIMITS.mailIp) || !consumeRateLimit(`mail:email:${email}`, LIMITS.mailEmail)) {
    writeAuditLog(db, { actionType: "password_reset_request", result: "blocked", details: { email, error: "rate_limited" }, ...meta });
    return jsonResponse(429, { error: RATE_LIMIT_MESSAGE, code: "rate_limited" });
  }
  if (!isAllowedEmail(email)) {
    writeAuditLog(db, { actionType: "password_reset_request", result: "failure", details: { email, error: "invalid_domain" }, ...meta });
    return jsonResponse(400, { error: DOMAIN_MESSAGE, code: "invalid_domain" });
  }
  const user = getUserByEmail(db, email);
  writeAuditLog(db, {
    userId: user?.id,
    actionType: "password_reset_request",
    result: "success",
    details: { email, account_found: Boolean(user) },
    ...meta,
  });
  if (user) {
    // Not awaited: the answer must not take longer when the account exists.
    sendPasswordResetLink(db, user).catch((error: unknown) => console.error("[e-mail] falha ao enviar redefinição", error));
  }
  return jsonResponse(200, { ok: true });
};
