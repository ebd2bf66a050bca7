import { eq } from "drizzle-orm";
import { users } from "../../../../db/schema/index.ts";
import { writeAuditLog, type RequestMeta } from "../audit/audit.ts";
import { config } from "../config/config.ts";
import type { Db } from "../data/db.ts";
import { confirmationMail, passwordResetMail, sendMail, setPasswordMail } from "../mail/email.ts";
import { createEmailToken } from "./email-tokens.ts";

type Recipient = { id: string; email: string };

/** Sends (or re-sends) the confirmation link of an unconfirmed account. */
export async function sendConfirmationLink(db: Db, user: Recipient): Promise<void> {
  const token = await createEmailToken(db, user.id, "email_confirmation");
  await sendMail(confirmationMail(user.email, `${config().publicUrl}/api/auth/confirm?token=${token}`));
}

/** A single-use link to /auth where the mailbox's holder sets a password: a reset, or the first one after a contested sign-up. */
export async function sendPasswordResetLink(db: Db, user: Recipient, kind: "reset" | "set-password" = "reset"): Promise<void> {
  const token = await createEmailToken(db, user.id, "password_reset");
  const url = `${config().publicUrl}/auth?mode=update-password&token=${token}`;
  await sendMail(kind === "reset" ? passwordResetMail(user.email, url) : setPasswordMail(user.email, url));
}

/** Marks the address confirmed (idempotent) and records it. */
export async function confirmUserEmail(db: Parameters<typeof writeAuditLog>[0], userId: string, meta: RequestMeta): Promise<void> {
  await db.update(users).set({ emailConfirmedAt: Date.now() }).where(eq(users.id, userId));
  await writeAuditLog(db, { userId, actionType: "user_email_confirmed", result: "success", ...meta });
}
