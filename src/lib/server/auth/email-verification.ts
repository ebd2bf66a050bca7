import { LINK_EXPIRED_MESSAGES, type ConfirmEmailInput, type ResendLinkInput } from "../../auth/schemas.ts";
import { confirmUserEmail, sendConfirmationLink, sendPasswordResetLink } from "./accounts.ts";
import { writeAuditLog, type RequestMeta } from "../audit/audit.ts";
import { rateLimited, refuseUnlessAllowedEmail } from "./guards.ts";
import { authFailure, type AuthResult } from "./result.ts";
import type { Db } from "../data/db.ts";
import { consumeEmailToken, findEmailToken } from "./email-tokens.ts";
import { verifyPasswordHash } from "./password/hash.ts";
import type { Attempt } from "../throttle/throttle.ts";
import { getUserByEmail, getUserById, hasUsablePassword, normalizeEmail } from "./user.ts";

export const WRONG_SIGN_UP_PASSWORD = "Senha incorreta. Digite a senha que você criou no cadastro.";

const linkExpired = () => authFailure(400, "link_expired", "Link inválido ou expirado");

/** Whether the confirmation link is still live (the link opens the form; it changes nothing). */
export async function isLiveConfirmationLink(db: Db, token: string): Promise<boolean> {
  return (await findEmailToken(db, token, "email_confirmation")).ok;
}

/**
 * Finishing a confirmation takes the link AND the password chosen at sign-up: the mailbox alone
 * cannot activate a password someone else chose, and nobody is signed in by it.
 */
export async function confirmEmail(db: Db, input: ConfirmEmailInput, meta: RequestMeta, attempt: Attempt): Promise<AuthResult> {
  const found = await findEmailToken(db, input.token, "email_confirmation");
  const user = found.ok ? await getUserById(db, found.userId) : null;
  if (!user) return linkExpired();
  if (await attempt.forAccount(user.email)) return rateLimited();
  if (!(await verifyPasswordHash(user.passwordHash, input.password))) {
    await writeAuditLog(db, {
      userId: user.id,
      actionType: "user_email_confirmed",
      result: "failure",
      details: { email: user.email, error: "invalid_credentials" },
      ...meta,
    });
    return authFailure(401, "invalid_credentials", WRONG_SIGN_UP_PASSWORD);
  }
  await attempt.succeeded();
  const confirmed = await db.transaction(async (tx) => {
    if (!(await consumeEmailToken(tx, input.token, "email_confirmation")).ok) return false;
    await confirmUserEmail(tx, user.id, meta);
    return true;
  });
  return confirmed ? { ok: true, value: undefined } : linkExpired();
}

/**
 * /link-expired: a new confirmation link for an unconfirmed account (a set-password link when its
 * password was discarded), or a new reset link for a confirmed one that asked for it. The answer
 * never tells whether the account exists.
 */
export async function resendLink(db: Db, input: ResendLinkInput, meta: RequestMeta, attempt: Attempt): Promise<AuthResult> {
  const email = normalizeEmail(input.email);
  const actionType = input.type === "password-reset" ? "password_reset_request" : "email_confirmation_resend";
  if (await attempt.forAccount(email)) return rateLimited();
  const refused = await refuseUnlessAllowedEmail(db, email, { actionType, email, meta }, LINK_EXPIRED_MESSAGES.unauthorized);
  if (refused) return refused;
  // The lookup, audit row, token and mail run after the answer, so its timing cannot tell whether the account exists.
  setImmediate(() => void resendLinkIfAccountExists(db, input.type, email, meta));
  return { ok: true, value: undefined };
}

async function resendLinkIfAccountExists(db: Db, type: ResendLinkInput["type"], email: string, meta: RequestMeta): Promise<void> {
  try {
    const user = await getUserByEmail(db, email);
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
    await writeAuditLog(db, { userId: user?.id, actionType, result: "success", details: { email, sent: Boolean(send) }, ...meta });
    send?.().catch((error: unknown) => console.error("[e-mail] falha ao reenviar link", error));
  } catch (error) {
    console.error("[e-mail] falha ao preparar reenvio de link", error);
  }
}
