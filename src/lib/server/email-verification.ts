import { LINK_EXPIRED_MESSAGES, type ConfirmEmailInput, type ResendLinkInput } from "../auth-schemas.ts";
import { confirmUserEmail, sendConfirmationLink, sendPasswordResetLink } from "./accounts.ts";
import { writeAuditLog, type RequestMeta } from "./audit.ts";
import { refuseRateLimited, refuseUnlessAllowedEmail, refuseWhenRateLimited } from "./auth-guards.ts";
import { authFailure, type AuthResult } from "./auth-result.ts";
import type { Db } from "./db.ts";
import { consumeEmailToken, findEmailToken } from "./email-tokens.ts";
import { verifyPasswordHash } from "./password.ts";
import { RATE_LIMITS } from "./rate-limit.ts";
import { beginPasswordAttempt, passwordAttemptSucceeded, signInBlockedKey } from "./sign-in-throttle.ts";
import { getUserByEmail, getUserById, hasUsablePassword, normalizeEmail } from "./user.ts";

export const WRONG_SIGN_UP_PASSWORD = "Senha incorreta. Digite a senha que você criou no cadastro.";

const linkExpired = () => authFailure(400, "link_expired", "Link inválido ou expirado");

/** Whether the confirmation link is still live (the link opens the form; it changes nothing). */
export function isLiveConfirmationLink(db: Db, token: string): boolean {
  return findEmailToken(db, token, "email_confirmation").ok;
}

/**
 * Finishing a confirmation takes the link AND the password chosen at sign-up: the mailbox alone
 * cannot activate a password someone else chose, and nobody is signed in by it.
 */
export async function confirmEmail(db: Db, input: ConfirmEmailInput, meta: RequestMeta): Promise<AuthResult> {
  const found = findEmailToken(db, input.token, "email_confirmation");
  const user = found.ok ? getUserById(db, found.userId) : null;
  if (!user) return linkExpired();
  const ip = meta.ipAddress ?? "";
  const attempt = { actionType: "user_email_confirmed", email: user.email, meta } as const;
  const blockedKey = signInBlockedKey(user.email, ip);
  if (blockedKey) return refuseRateLimited(db, blockedKey, attempt);
  beginPasswordAttempt(user.email, ip);
  if (!(await verifyPasswordHash(user.passwordHash, input.password))) {
    writeAuditLog(db, {
      userId: user.id,
      actionType: attempt.actionType,
      result: "failure",
      details: { email: user.email, error: "invalid_credentials" },
      ...meta,
    });
    return authFailure(401, "invalid_credentials", WRONG_SIGN_UP_PASSWORD);
  }
  passwordAttemptSucceeded(user.email, ip);
  const confirmed = db.transaction((tx) => {
    if (!consumeEmailToken(tx, input.token, "email_confirmation").ok) return false;
    confirmUserEmail(tx, user.id, meta);
    return true;
  });
  return confirmed ? { ok: true, value: undefined } : linkExpired();
}

/**
 * /link-expired: a new confirmation link for an unconfirmed account (a set-password link when its
 * password was discarded), or a new reset link for a confirmed one that asked for it. The answer
 * never tells whether the account exists.
 */
export function resendLink(db: Db, input: ResendLinkInput, meta: RequestMeta): AuthResult {
  const email = normalizeEmail(input.email);
  const actionType = input.type === "password-reset" ? "password_reset_request" : "email_confirmation_resend";
  const attempt = { actionType, email, meta } as const;
  const refused =
    refuseWhenRateLimited(db, [{ key: `mail:email:${email}`, limit: RATE_LIMITS.mailEmail }], attempt) ??
    refuseUnlessAllowedEmail(db, email, attempt, LINK_EXPIRED_MESSAGES.unauthorized);
  if (refused) return refused;
  // The lookup, audit row, token and mail run after the answer, so its timing cannot tell whether the account exists.
  setImmediate(() => resendLinkIfAccountExists(db, input.type, email, meta));
  return { ok: true, value: undefined };
}

function resendLinkIfAccountExists(db: Db, type: ResendLinkInput["type"], email: string, meta: RequestMeta): void {
  try {
    const user = getUserByEmail(db, email);
    const send = !user
      ? null
      : user.emailConfirmedAt === null
        ? hasUsablePassword(user)
          ? () => sendConfirmationLink(db, user)
          : () => sendPasswordResetLink(db, user, "set-password")
        : type === "password-reset"
          ? () => sendPasswordResetLink(db, user)
          : null;
    const actionType = type === "password-reset" ? "password_reset_request" : "email_confirmation_resend";
    writeAuditLog(db, { userId: user?.id, actionType, result: "success", details: { email, sent: Boolean(send) }, ...meta });
    send?.().catch((error: unknown) => console.error("[e-mail] falha ao reenviar link", error));
  } catch (error) {
    console.error("[e-mail] falha ao preparar reenvio de link", error);
  }
}
