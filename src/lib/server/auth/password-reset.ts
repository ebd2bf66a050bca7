import type { ResetRequestInput, UpdatePasswordRequest } from "../../auth/schemas.ts";
import { sendPasswordResetLink } from "./accounts.ts";
import { writeAuditLog, type RequestMeta } from "../audit/audit.ts";
import { rateLimited, refuseUnlessAllowedEmail } from "./guards.ts";
import { authFailure, type AuthResult } from "./result.ts";
import type { Db } from "../data/db.ts";
import { consumeEmailToken, findEmailToken } from "./email-tokens.ts";
import { hashPassword } from "./password/hash.ts";
import { refuseCommonPassword } from "./password/common.ts";
import type { Attempt } from "../throttle/throttle.ts";
import { invalidateUserSessions } from "../sessions/session.ts";
import { forgetDevices } from "../sessions/remembered-device.ts";
import { getUserByEmail, normalizeEmail, setPasswordFromMailbox } from "./user.ts";

const linkExpired = () => authFailure(400, "link_expired", "Link inválido ou expirado");

/** Reset request: the same answer whether or not the account exists (no enumeration). */
export async function requestPasswordReset(db: Db, input: ResetRequestInput, meta: RequestMeta, attempt: Attempt): Promise<AuthResult> {
  const email = normalizeEmail(input.email);
  if (await attempt.forAccount(email)) return rateLimited();
  const refused = await refuseUnlessAllowedEmail(db, email, { actionType: "password_reset_request", email, meta });
  if (refused) return refused;
  // The lookup, audit row, token and mail run after the answer, so its timing cannot tell whether the account exists.
  setImmediate(() => void sendResetLinkIfAccountExists(db, email, meta));
  return { ok: true, value: undefined };
}

async function sendResetLinkIfAccountExists(db: Db, email: string, meta: RequestMeta): Promise<void> {
  try {
    const user = await getUserByEmail(db, email);
    await writeAuditLog(db, {
      userId: user?.id,
      actionType: "password_reset_request",
      result: "success",
      details: { email, account_found: Boolean(user), ...(user?.deactivatedAt ? { error: "account_deactivated" } : {}) },
      ...meta,
    });
    // A deactivated account gets no link: a new password would open nothing, and the mail would mislead.
    if (!user || user.deactivatedAt !== null) return;
    await sendPasswordResetLink(db, user).catch((error: unknown) => console.error("[e-mail] falha ao enviar redefinição", error));
  } catch (error) {
    console.error("[e-mail] falha ao preparar redefinição", error);
  }
}

/** New password from the reset link: single-use token, password, every session and remembered device ended in one transaction. */
export async function updatePassword(db: Db, input: UpdatePasswordRequest, meta: RequestMeta): Promise<AuthResult> {
  // A dead link costs no Argon2; the token is consumed below, in the transaction.
  if (!(await findEmailToken(db, input.token, "password_reset")).ok) return linkExpired();
  const common = refuseCommonPassword(input.password);
  if (common) return common;
  const passwordHash = await hashPassword(input.password);
  const updated = await db.transaction(async (tx) => {
    const token = await consumeEmailToken(tx, input.token, "password_reset");
    if (!token.ok) return false;
    await setPasswordFromMailbox(tx, token.userId, passwordHash);
    await invalidateUserSessions(tx, token.userId);
    await forgetDevices(tx, token.userId);
    await writeAuditLog(tx, { userId: token.userId, actionType: "password_reset_success", result: "success", ...meta });
    return true;
  });
  return updated ? { ok: true, value: undefined } : linkExpired();
}
