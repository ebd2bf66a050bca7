import type { ResetRequestInput, UpdatePasswordRequest } from "../auth-schemas.ts";
import { sendPasswordResetLink } from "./accounts.ts";
import { writeAuditLog, type RequestMeta } from "./audit.ts";
import { refuseUnlessAllowedEmail, refuseWhenRateLimited } from "./auth-guards.ts";
import { authFailure, type AuthResult } from "./auth-result.ts";
import type { Db } from "./db.ts";
import { consumeEmailToken, findEmailToken } from "./email-tokens.ts";
import { hashPassword } from "./password.ts";
import { refuseCommonPassword } from "./common-passwords.ts";
import { RATE_LIMITS } from "./rate-limit.ts";
import { invalidateUserSessions } from "./session.ts";
import { getUserByEmail, normalizeEmail, setPasswordFromMailbox } from "./user.ts";

const linkExpired = () => authFailure(400, "link_expired", "Link inválido ou expirado");

/** Reset request: the same answer whether or not the account exists (no enumeration). */
export function requestPasswordReset(db: Db, input: ResetRequestInput, meta: RequestMeta): AuthResult {
  const email = normalizeEmail(input.email);
  const attempt = { actionType: "password_reset_request", email, meta } as const;
  const refused =
    refuseWhenRateLimited(db, [{ key: `mail:email:${email}`, limit: RATE_LIMITS.mailEmail }], attempt) ??
    refuseUnlessAllowedEmail(db, email, attempt);
  if (refused) return refused;
  // The lookup, audit row, token and mail run after the answer, so its timing cannot tell whether the account exists.
  setImmediate(() => sendResetLinkIfAccountExists(db, email, meta));
  return { ok: true, value: undefined };
}

function sendResetLinkIfAccountExists(db: Db, email: string, meta: RequestMeta): void {
  try {
    const user = getUserByEmail(db, email);
    writeAuditLog(db, {
      userId: user?.id,
      actionType: "password_reset_request",
      result: "success",
      details: { email, account_found: Boolean(user) },
      ...meta,
    });
    if (!user) return;
    sendPasswordResetLink(db, user).catch((error: unknown) => console.error("[e-mail] falha ao enviar redefinição", error));
  } catch (error) {
    console.error("[e-mail] falha ao preparar redefinição", error);
  }
}

/** New password from the reset link: single-use token, password and every session ended in one transaction. */
export async function updatePassword(db: Db, input: UpdatePasswordRequest, meta: RequestMeta): Promise<AuthResult> {
  // A dead link costs no Argon2; the token is consumed below, in the transaction.
  if (!findEmailToken(db, input.token, "password_reset").ok) return linkExpired();
  const common = refuseCommonPassword(input.password);
  if (common) return common;
  const passwordHash = await hashPassword(input.password);
  const updated = db.transaction((tx) => {
    const token = consumeEmailToken(tx, input.token, "password_reset");
    if (!token.ok) return false;
    setPasswordFromMailbox(tx, token.userId, passwordHash);
    // Same connection, so the sessions end inside this transaction.
    invalidateUserSessions(db, token.userId);
    writeAuditLog(tx, { userId: token.userId, actionType: "password_reset_success", result: "success", ...meta });
    return true;
  });
  return updated ? { ok: true, value: undefined } : linkExpired();
}
