import { eq } from "drizzle-orm";
import { users } from "../../../db/schema/index.ts";
import { writeAuditLog } from "./audit.ts";
import { config } from "./config.ts";
import type { Db } from "./db.ts";
import { confirmationMail, passwordResetMail, sendMail } from "./email.ts";
import { createEmailToken } from "./email-tokens.ts";

/** Sends (or re-sends) the confirmation link of an unconfirmed account. */
export async function sendConfirmationLink(db: Db, user: { id: string; email: string; fullName: string }): Promise<void> {
  const token = createEmailToken(db, user.id, "email_confirmation");
  const url = `${config().publicUrl}/api/auth/confirm?token=${token}`;
  await sendMail(confirmationMail(user.email, user.fullName, url));
}

export async function sendPasswordResetLink(db: Db, user: { id: string; email: string; fullName: string }): Promise<void> {
  const token = createEmailToken(db, user.id, "password_reset");
  const url = `${config().publicUrl}/auth?mode=update-password&token=${token}`;
  await sendMail(passwordResetMail(user.email, user.fullName, url));
}

/** Marks the address confirmed (idempotent) and records it. */
export function confirmUserEmail(db: Db, userId: string, meta: { ipAddress?: string | null; userAgent?: string | null }): void {
  db.transaction((tx) => {
    tx.update(users).set({ emailConfirmedAt: Date.now() }).where(eq(users.id, userId)).run();
    writeAuditLog(tx, { userId, actionType: "user_email_confirmed", result: "success", ...meta });
  });
}
