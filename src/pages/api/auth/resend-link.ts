import type { APIRoute } from "astro";
import { LINK_EXPIRED_MESSAGES, resendLinkSchema } from "../../../lib/forms";
import { sendConfirmationLink, sendPasswordResetLink } from "../../../lib/server/accounts";
import { isAllowedEmail } from "../../../lib/server/allowed-email";
import { writeAuditLog } from "../../../lib/server/audit";
import { getDb } from "../../../lib/server/db";
import { jsonResponse, parseJsonBody, requestMeta } from "../../../lib/server/http";
import { consumeRateLimit, LIMITS, RATE_LIMIT_MESSAGE } from "../../../lib/server/rate-limit";
import { getUserByEmail, normalizeEmail } from "../../../lib/server/user";

export const prerender = false;

/**
 * /link-expired: a new confirmation link for an unconfirmed account, or a new reset link for a
 * confirmed one that asked for it. The answer never tells whether the account exists.
 */
export const POST: APIRoute = async ({ request, locals }) => {
  const db = getDb();
  const meta = requestMeta(locals, request);
  const parsed = await parseJsonBody(request, resendLinkSchema);
  if (!parsed.ok) return parsed.response;
  const email = normalizeEmail(parsed.data.email);
  if (!consumeRateLimit(`mail:ip:${locals.clientIp}`, LIMITS.mailIp) || !consumeRateLimit(`mail:email:${email}`, LIMITS.mailEmail)) {
    return jsonResponse(429, { error: RATE_LIMIT_MESSAGE, code: "rate_limited" });
  }
  if (!isAllowedEmail(email)) {
    return jsonResponse(400, { error: LINK_EXPIRED_MESSAGES.unauthorized, code: "invalid_domain" });
  }
  const user = getUserByEmail(db, email);
  const send = !user
    ? null
    : user.emailConfirmedAt === null
      ? () => sendConfirmationLink(db, user)
      : parsed.data.type === "password-reset"
        ? () => sendPasswordResetLink(db, user)
        : null;
  writeAuditLog(db, {
    userId: user?.id,
    actionType: parsed.data.type === "password-reset" ? "password_reset_request" : "email_confirmation_resend",
    result: "success",
    details: { email, sent: Boolean(send) },
    ...meta,
  });
  send?.().catch((error: unknown) => console.error("[e-mail] falha ao reenviar link", error));
  return jsonResponse(200, { ok: true, type: parsed.data.type });
};
