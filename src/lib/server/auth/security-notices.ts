/**
 * What the owner of an account hears by e-mail when its security changes: a second factor enabled
 * or removed, and a sign-in from a device that none of the account's open sessions uses. Sent after
 * the answer: a failed send is logged, never the visitor's problem.
 */
import { and, eq, gt } from "drizzle-orm";
import { sessions } from "../../../../db/schema/index.ts";
import { formatDateTime } from "../../admin/labels.ts";
import type { RequestMeta } from "../audit/audit.ts";
import { config } from "../config/config.ts";
import type { Db, Tx } from "../data/db.ts";
import { newDeviceMail, sendMail, twoFactorEnabledMail, twoFactorResetMail, type Mail } from "../mail/email.ts";
import { describeAgent } from "../sessions/my-sessions.ts";

function sendLater(mail: Mail): void {
  setImmediate(() => void sendMail(mail).catch((error: unknown) => console.error("[e-mail] falha ao enviar aviso de segurança", error)));
}

/** Browser and system of a user agent, as the notice names them ("Chrome em Windows"); versions left out. */
function deviceOf(userAgent: string | null | undefined): string {
  const { browser, system } = describeAgent(userAgent ?? null, false);
  // The names come from a header the client chooses: only letters, digits and simple punctuation reach the mail.
  return `${browser} em ${system}`.replace(/[^\p{L}\p{N} .()_-]/gu, "").slice(0, 80);
}

/**
 * Before a new session opens: the device's name when the account has open sessions and none of them
 * is on this device, else null (a first sign-in, or one after every session ended, is not news).
 */
export async function newDeviceOf(
  db: Db | Tx,
  userId: string,
  userAgent: string | null | undefined,
  now = Date.now(),
): Promise<string | null> {
  const open = await db
    .select({ userAgent: sessions.userAgent })
    .from(sessions)
    .where(and(eq(sessions.userId, userId), gt(sessions.expiresAt, now)));
  if (open.length === 0) return null;
  const device = deviceOf(userAgent);
  return open.some((session) => deviceOf(session.userAgent) === device) ? null : device;
}

export function noticeNewDevice(email: string, device: string, meta: RequestMeta, now = Date.now()): void {
  const { publicUrl, tzDisplay } = config();
  sendLater(
    newDeviceMail(
      email,
      { label: device, ipAddress: meta.ipAddress ?? null, when: formatDateTime(now, tzDisplay) },
      `${publicUrl}/conta/sessoes`,
    ),
  );
}

export function noticeTwoFactorEnabled(email: string): void {
  sendLater(twoFactorEnabledMail(email, `${config().publicUrl}/conta/dois-fatores`));
}

export function noticeTwoFactorReset(email: string): void {
  sendLater(twoFactorResetMail(email, `${config().publicUrl}/auth`));
}
