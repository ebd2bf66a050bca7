import type { APIRoute } from "astro";
import { signUpSchema } from "../../../lib/forms";
import { sendConfirmationLink } from "../../../lib/server/accounts";
import { DOMAIN_MESSAGE, isAllowedEmail } from "../../../lib/server/allowed-email";
import { writeAuditLog } from "../../../lib/server/audit";
import { getDb } from "../../../lib/server/db";
import { jsonResponse, parseJsonBody, requestMeta } from "../../../lib/server/http";
import { consumeRateLimit, LIMITS, RATE_LIMIT_MESSAGE } from "../../../lib/server/rate-limit";
import { createUser, normalizeEmail } from "../../../lib/server/user";

export const prerender = false;

/** Sign-up: user + default role visualizador, then a confirmation link by e-mail. */
export const POST: APIRoute = async ({ request, locals }) => {
  const db = getDb();
  const meta = requestMeta(locals, request);
  if (!consumeRateLimit(`sign-up:ip:${locals.clientIp}`, LIMITS.signUpIp)) {
    writeAuditLog(db, { actionType: "user_signup_attempt", result: "blocked", details: { error: "rate_limited" }, ...meta });
    return jsonResponse(429, { error: RATE_LIMIT_MESSAGE, code: "rate_limited" });
  }
  const parsed = await parseJsonBody(request, signUpSchema);
  if (!parsed.ok) {
    const body = (await parsed.response.clone().json()) as { fields?: Record<string, string> };
    if (body.fields?.password) return jsonResponse(400, { ...body, error: body.fields.password, code: "weak_password" });
    return parsed.response;
  }
  const { email, fullName, password } = parsed.data;
  const address = normalizeEmail(email);
  if (!isAllowedEmail(address)) {
    writeAuditLog(db, {
      actionType: "user_signup_attempt",
      result: "failure",
      details: { email: address, error: "invalid_domain" },
      ...meta,
    });
    return jsonResponse(400, { error: DOMAIN_MESSAGE, code: "invalid_domain" });
  }
  writeAuditLog(db, { actionType: "user_signup_attempt", result: "success", details: { email: address }, ...meta });
  const created = await createUser(
    db,
    { email: address, fullName, password, roleNames: ["visualizador"], confirmed: false },
    ({ userId, email: created, roles }) => [
      { userId, actionType: "user_signup_success", result: "success", details: { email: created, roles }, ...meta },
    ],
  );
  if (!created.ok) {
    writeAuditLog(db, { actionType: "user_signup_attempt", result: "failure", details: { email: address, error: created.error }, ...meta });
    return jsonResponse(409, { error: "E-mail já cadastrado", code: "email_taken" });
  }
  try {
    await sendConfirmationLink(db, { id: created.userId, email: address, fullName });
  } catch (error) {
    // The account exists; the person can ask for a new link on /link-expired.
    console.error("[e-mail] falha ao enviar confirmação", error);
  }
  return jsonResponse(201, { ok: true });
};
