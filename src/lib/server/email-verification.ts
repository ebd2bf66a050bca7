import { LINK_EXPIRED_MESSAGES, type ResendLinkInput } from "../forms.ts";
import { confirmUserEmail, sendConfirmationLink, sendPasswordResetLink } from "./accounts.ts";
import { writeAuditLog, type RequestMeta } from "./audit.ts";
import { refuseUnlessAllowedEmail, refuseWhenRateLimited } from "./auth-guards.ts";
import { authFailure, type AuthResult } from "./auth-result.ts";
import type { Db } from "./db.ts";
import { consumeEmailToken } from "./email-tokens.ts";
import { LIMITS } from "./rate-limit.ts";
import { createSession } from "./session.ts";
import { getUserByEmail, normalizeEmail } from "./user.ts";

/** The confirmation link: confirms the address and opens a session for it. */
export function confirmEmail(db: Db, token: string, meta: RequestMeta): AuthResult<{ token: string; expiresAt: number }> {
  const result = consumeEmailToken(db, token, "email_confirmation");
  if (!result.ok) return authFailure(400, "link_expired", "Link inválido ou expirado");
  confirmUserEmail(db, result.userId, meta);
  return { ok: true, value: createSession(db, result.userId, meta) };
}

/**
 * /link-expired: a new confirmation link for an unconfirmed account, or a new reset link for a
 * confirmed one that asked for it. The answer never tells whether the account exists.
 */
export function resendLink(db: Db, input: ResendLinkInput, meta: RequestMeta): AuthResult {
  const email = normalizeEmail(input.email);
  const actionType = input.type === "password-reset" ? "password_reset_request" : "email_confirmation_resend";
  const attempt = { actionType, email, meta } as const;
  const refused =
    refuseWhenRateLimited(db, [{ key: `mail:email:${email}`, limit: LIMITS.mailEmail }], attempt) ??
    refuseUnlessAllowedEmail(db, email, attempt, LINK_EXPIRED_MESSAGES.unauthorized);
  if (refused) return refused;
  const user = getUserByEmail(db, email);
  const send = !user
    ? null
    : user.emailConfirmedAt === null
      ? () => sendConfirmationLink(db, user)
      : input.type === "password-reset"
        ? () => sendPasswordResetLink(db, user)
        : null;
  writeAuditLog(db, { userId: user?.id, actionType, result: "success", details: { email, sent: Boolean(send) }, ...meta });
  send?.().catch((error: unknown) => console.error("[e-mail] falha ao reenviar link", error));
  return { ok: true, value: undefined };
}
