import { fieldMessages, signUpSchema } from "../../auth/schemas.ts";
import { sendConfirmationLink, sendPasswordResetLink } from "./accounts.ts";
import { writeAuditLog, type RequestMeta } from "../audit/audit.ts";
import { refuseUnlessAllowedEmail } from "./guards.ts";
import { authFailure, type AuthResult } from "./result.ts";
import { refuseCommonPassword } from "./password/common.ts";
import type { Db } from "../data/db.ts";
import { deleteUnusedEmailTokens } from "./email-tokens.ts";
import { createUser, discardPendingPassword, getUserByEmail, normalizeEmail } from "./user.ts";

/**
 * Sign-up: an unconfirmed user with the default role visualizador, then a confirmation link by
 * e-mail. Validates here (not in the endpoint) so a weak password gets its own code. A second
 * sign-up of an unconfirmed address answers the same, replaces nothing, and hands the account to
 * its mailbox: the pending password and links die, and a set-password link is mailed.
 */
export async function signUp(db: Db, body: unknown, meta: RequestMeta): Promise<AuthResult> {
  const parsed = signUpSchema.safeParse(body);
  if (!parsed.success) {
    const { error, fields } = fieldMessages(parsed.error);
    return fields.password ? authFailure(400, "weak_password", fields.password, fields) : authFailure(400, undefined, error, fields);
  }
  const { fullName, password } = parsed.data;
  const email = normalizeEmail(parsed.data.email);
  const attempt = { actionType: "user_signup_attempt", email, meta } as const;
  const refused = (await refuseUnlessAllowedEmail(db, email, attempt)) ?? refuseCommonPassword(password);
  if (refused) return refused;
  await writeAuditLog(db, { actionType: attempt.actionType, result: "success", details: { email }, ...meta });
  const created = await createUser(db, { email, fullName, password, roleNames: ["visualizador"], confirmed: false }, (user) => [
    { userId: user.userId, actionType: "user_signup_success", result: "success", details: { email, roles: user.roles }, ...meta },
  ]);
  if (!created.ok) {
    const pending = await getUserByEmail(db, email);
    if (pending && pending.emailConfirmedAt === null) return await handPendingAccountToMailbox(db, pending, meta);
    await writeAuditLog(db, { actionType: attempt.actionType, result: "failure", details: { email, error: created.error }, ...meta });
    return authFailure(409, "email_taken", "E-mail já cadastrado");
  }
  try {
    await sendConfirmationLink(db, { id: created.userId, email });
  } catch (error) {
    // The account exists; the person can ask for a new link on /link-expired.
    console.error("[e-mail] falha ao enviar confirmação", error);
  }
  return { ok: true, value: undefined };
}

async function handPendingAccountToMailbox(db: Db, user: { id: string; email: string }, meta: RequestMeta): Promise<AuthResult> {
  await db.transaction(async (tx) => {
    await discardPendingPassword(tx, user.id);
    await deleteUnusedEmailTokens(tx, user.id, "email_confirmation");
    await writeAuditLog(tx, {
      userId: user.id,
      actionType: "user_signup_attempt",
      result: "success",
      details: { email: user.email, pending_account: "password_discarded" },
      ...meta,
    });
  });
  try {
    await sendPasswordResetLink(db, user, "set-password");
  } catch (error) {
    console.error("[e-mail] falha ao enviar link de definição de senha", error);
  }
  return { ok: true, value: undefined };
}
