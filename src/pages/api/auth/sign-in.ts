import type { APIRoute } from "astro";
import { z } from "zod";
import { signInSchema } from "../../../lib/forms";
import { DOMAIN_MESSAGE, isAllowedEmail } from "../../../lib/server/allowed-email";
import { writeAuditLog } from "../../../lib/server/audit";
import { config } from "../../../lib/server/config";
import { getDb } from "../../../lib/server/db";
import { jsonResponse, parseJsonBody, requestMeta } from "../../../lib/server/http";
import { hashPassword, verifyPasswordHash } from "../../../lib/server/password";
import { consumeRateLimit, LIMITS, RATE_LIMIT_MESSAGE } from "../../../lib/server/rate-limit";
import { createSession, sessionCookieHeader } from "../../../lib/server/session";
import { getUserByEmail, normalizeEmail } from "../../../lib/server/user";
import { safeNextPath } from "../../../lib/url-path";

export const prerender = false;

export const INVALID_CREDENTIALS = "E-mail ou senha incorretos. Verifique suas credenciais e tente novamente.";

// Unknown e-mails are verified against this hash so both paths cost the same Argon2 time.
const dummyHash = hashPassword("Senha@Inexistente1");

const bodySchema = signInSchema.extend({ next: z.string().max(2048).optional() });

export const POST: APIRoute = async ({ request, locals }) => {
  const db = getDb();
  const meta = requestMeta(locals, request);
  const parsed = await parseJsonBody(request, bodySchema);
  if (!parsed.ok) return parsed.response;
  const email = normalizeEmail(parsed.data.email);
  const ipAllowed = consumeRateLimit(`sign-in:ip:${locals.clientIp}`, LIMITS.signInIp);
  if (!ipAllowed || !consumeRateLimit(`sign-in:email:${email}`, LIMITS.signInEmail)) {
    writeAuditLog(db, { actionType: "user_login_attempt", result: "blocked", details: { email, error: "rate_limited" }, ...meta });
    return jsonResponse(429, { error: RATE_LIMIT_MESSAGE, code: "rate_limited" });
  }
  if (!isAllowedEmail(email)) {
    writeAuditLog(db, { actionType: "user_login_attempt", result: "failure", details: { email, error: "invalid_domain" }, ...meta });
    return jsonResponse(400, { error: DOMAIN_MESSAGE, code: "invalid_domain" });
  }
  const user = getUserByEmail(db, email);
  const valid = await verifyPasswordHash(user?.passwordHash ?? (await dummyHash), parsed.data.password);
  if (!user || !valid) {
    writeAuditLog(db, {
      userId: user?.id,
      actionType: "user_login_attempt",
      result: "failure",
      details: { email, error: "invalid_credentials" },
      ...meta,
    });
    return jsonResponse(401, { error: INVALID_CREDENTIALS, code: "invalid_credentials" });
  }
  if (user.emailConfirmedAt === null) {
    writeAuditLog(db, {
      userId: user.id,
      actionType: "user_login_attempt",
      result: "failure",
      details: { email, error: "email_not_confirmed" },
      ...meta,
    });
    return jsonResponse(403, { error: "E-mail não confirmado", code: "email_not_confirmed" });
  }
  const session = createSession(db, user.id, meta);
  writeAuditLog(db, { userId: user.id, actionType: "user_login_success", result: "success", details: { email }, ...meta });
  return jsonResponse(
    200,
    { ok: true, next: safeNextPath(parsed.data.next) },
    { "Set-Cookie": sessionCookieHeader(session.token, session.expiresAt, config().publicUrl.startsWith("https://")) },
  );
};
