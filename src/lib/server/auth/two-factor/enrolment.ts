/**
 * Two-factor: enrolment and the admin's reset (this file), the encrypted TOTP secret (secret.ts),
 * codes and recovery codes (code.ts), and the challenge between password and session (sign-in.ts).
 */
import { createTOTPKeyURI } from "@oslojs/otp";
import { encodeBase32LowerCaseNoPadding, encodeBase32UpperCaseNoPadding } from "@oslojs/encoding";
import { and, eq, inArray, isNotNull, isNull, lt, or } from "drizzle-orm";
import { renderSVG } from "uqr";
import { twoFactorChallenges, twoFactorRecoveryCodes, twoFactorSecrets } from "../../../../../db/schema/index.ts";
import { writeAuditLog, type RequestMeta } from "../../audit/audit.ts";
import { authFailure, type AuthResult } from "../result.ts";
import { noticeTwoFactorEnabled, noticeTwoFactorReset } from "../security-notices.ts";
import type { Db } from "../../data/db.ts";
import { invalidateUserSessions, recordSecondFactor } from "../../sessions/session.ts";
import { forgetDevices } from "../../sessions/remembered-device.ts";
import { SIGN_IN_AGAIN_CODE, SIGN_IN_AGAIN_MESSAGE, signedInRecently } from "../../sessions/recent-sign-in.ts";
import { hashRecoveryCode, matchTotpStep, TOTP_DIGITS, TOTP_PERIOD_SECONDS } from "./code.ts";
import { decryptTwoFactorSecret, encryptTwoFactorSecret } from "./secret.ts";

export const TWO_FACTOR_OFF_MESSAGE = "A verificação em duas etapas não está configurada neste portal. Fale com o administrador.";
export const ALREADY_ENROLLED_MESSAGE = "A verificação em duas etapas já está ativa na sua conta.";
export const WRONG_CODE_MESSAGE = "Código inválido ou expirado. Confira o aplicativo autenticador e tente novamente.";
export const RESET_OFF_MESSAGE =
  "A verificação em duas etapas não está configurada neste portal (TWO_FACTOR_KEY não definida): não há segundo fator para redefinir.";
export const NOT_ENROLLED_MESSAGE = "Este usuário não tem verificação em duas etapas ativa.";
const ISSUER = "B1 Method Hub";
const RECOVERY_CODE_COUNT = 10;

export interface TwoFactorStatus {
  enrolled: boolean;
  recoveryCodesLeft: number;
}

export async function readTwoFactorStatus(db: Db, userId: string): Promise<TwoFactorStatus> {
  const row = (
    await db.select({ confirmedAt: twoFactorSecrets.confirmedAt }).from(twoFactorSecrets).where(eq(twoFactorSecrets.userId, userId))
  )[0];
  const codes = await db
    .select({ usedAt: twoFactorRecoveryCodes.usedAt })
    .from(twoFactorRecoveryCodes)
    .where(eq(twoFactorRecoveryCodes.userId, userId));
  return { enrolled: Boolean(row?.confirmedAt), recoveryCodesLeft: codes.filter((code) => code.usedAt === null).length };
}

/** The users among `userIds` who have confirmed a second factor (one query for a page of the admin list). */
export async function enrolledAmong(db: Db, userIds: readonly string[]): Promise<Set<string>> {
  if (userIds.length === 0) return new Set();
  const rows = await db
    .select({ userId: twoFactorSecrets.userId })
    .from(twoFactorSecrets)
    .where(and(inArray(twoFactorSecrets.userId, [...userIds]), isNotNull(twoFactorSecrets.confirmedAt)));
  return new Set(rows.map((row) => row.userId));
}

/** The signed-in person at the enrolment page, and the session they use there. */
export interface EnrollingUser {
  userId: string;
  email: string;
  sessionId: string | null;
}

/**
 * A new pending key for the user: the QR code (SVG) and the key to type by hand. One statement
 * writes it and never over a confirmed key, so another session's 'Ativar' cannot replace the key
 * its owner is confirming at that moment.
 */
export async function beginTwoFactorEnrolment(
  db: Db,
  key: Buffer | null,
  user: EnrollingUser,
  now = Date.now(),
): Promise<AuthResult<{ qrSvg: string; manualKey: string }>> {
  if (!key) return authFailure(409, "two_factor_off", TWO_FACTOR_OFF_MESSAGE);
  if (!(await signedInRecently(db, user.userId, user.sessionId, now))) return authFailure(403, SIGN_IN_AGAIN_CODE, SIGN_IN_AGAIN_MESSAGE);
  const secret = crypto.getRandomValues(new Uint8Array(20));
  const secretEncrypted = encryptTwoFactorSecret(key, secret);
  const written = await db
    .insert(twoFactorSecrets)
    .values({ userId: user.userId, secretEncrypted })
    .onConflictDoUpdate({
      target: twoFactorSecrets.userId,
      set: { secretEncrypted, lastUsedStep: null },
      setWhere: isNull(twoFactorSecrets.confirmedAt),
    })
    .returning({ userId: twoFactorSecrets.userId });
  if (written.length === 0) return authFailure(409, "already_enrolled", ALREADY_ENROLLED_MESSAGE);
  const uri = createTOTPKeyURI(ISSUER, user.email, secret, TOTP_PERIOD_SECONDS, TOTP_DIGITS);
  const manualKey = encodeBase32UpperCaseNoPadding(secret).replace(/(.{4})(?=.)/g, "$1 ");
  return { ok: true, value: { qrSvg: renderSVG(uri, { ecc: "M", border: 2 }), manualKey } };
}

/** Ten random codes shown once, e.g. `k3m9x-p2q7r`. */
function generateRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const text = encodeBase32LowerCaseNoPadding(crypto.getRandomValues(new Uint8Array(7))).slice(0, 10);
    return `${text.slice(0, 5)}-${text.slice(5)}`;
  });
}

/**
 * The first code from the app confirms the pending key; the answer carries the recovery codes, the
 * only time they are shown. The account's other sessions end (they were opened without the factor)
 * and this one, which just presented a code, becomes a two-factor session.
 */
export async function confirmTwoFactorEnrolment(
  db: Db,
  key: Buffer | null,
  user: EnrollingUser,
  code: string,
  meta: RequestMeta,
  now = Date.now(),
): Promise<AuthResult<{ recoveryCodes: string[] }>> {
  if (!key) return authFailure(409, "two_factor_off", TWO_FACTOR_OFF_MESSAGE);
  if (!(await signedInRecently(db, user.userId, user.sessionId, now))) return authFailure(403, SIGN_IN_AGAIN_CODE, SIGN_IN_AGAIN_MESSAGE);
  const row = (await db.select().from(twoFactorSecrets).where(eq(twoFactorSecrets.userId, user.userId)))[0];
  if (row?.confirmedAt) return authFailure(409, "already_enrolled", ALREADY_ENROLLED_MESSAGE);
  const secret = row && decryptTwoFactorSecret(key, row.secretEncrypted);
  const step = secret ? matchTotpStep(secret, row.lastUsedStep, code.trim(), now) : null;
  if (!row || step === null) return authFailure(400, "invalid_code", WRONG_CODE_MESSAGE, { code: WRONG_CODE_MESSAGE });
  const recoveryCodes = generateRecoveryCodes();
  const confirmed = await db.transaction(async (tx) => {
    // One statement confirms exactly the key the code was checked against, still pending, its step unused.
    const updated = await tx
      .update(twoFactorSecrets)
      .set({ confirmedAt: now, lastUsedStep: step })
      .where(
        and(
          eq(twoFactorSecrets.userId, user.userId),
          eq(twoFactorSecrets.secretEncrypted, row.secretEncrypted),
          isNull(twoFactorSecrets.confirmedAt),
          or(isNull(twoFactorSecrets.lastUsedStep), lt(twoFactorSecrets.lastUsedStep, step)),
        ),
      )
      .returning({ userId: twoFactorSecrets.userId });
    if (updated.length === 0) return false;
    await tx.delete(twoFactorRecoveryCodes).where(eq(twoFactorRecoveryCodes.userId, user.userId));
    await tx
      .insert(twoFactorRecoveryCodes)
      .values(recoveryCodes.map((recoveryCode) => ({ codeHash: hashRecoveryCode(recoveryCode), userId: user.userId })));
    const ended = await invalidateUserSessions(tx, user.userId, user.sessionId);
    if (user.sessionId) await recordSecondFactor(tx, user.sessionId, user.userId);
    await writeAuditLog(tx, {
      userId: user.userId,
      actionType: "two_factor_enabled",
      result: "success",
      details: { email: user.email, sessionsEnded: ended },
      ...meta,
    });
    return true;
  });
  // Another session replaced the pending key, or confirmed one, between the check and the write.
  if (!confirmed) {
    return (await readTwoFactorStatus(db, user.userId)).enrolled
      ? authFailure(409, "already_enrolled", ALREADY_ENROLLED_MESSAGE)
      : authFailure(400, "invalid_code", WRONG_CODE_MESSAGE, { code: WRONG_CODE_MESSAGE });
  }
  noticeTwoFactorEnabled(user.email);
  return { ok: true, value: { recoveryCodes } };
}

/**
 * An administrator removes a user's second factor (lost phone): every session and remembered device
 * of the user ends (the lost device may hold one) and they enrol again at their next sign-in. Only a confirmed factor
 * on a portal with two-factor configured can be reset; anything else is refused and nothing changes.
 */
export async function resetTwoFactor(
  db: Db,
  key: Buffer | null,
  target: { userId: string; email: string },
  actor: { userId: string } & RequestMeta,
): Promise<AuthResult> {
  if (!key) return authFailure(409, "two_factor_off", RESET_OFF_MESSAGE);
  const reset = await db.transaction(async (tx) => {
    const removed = (
      await tx
        .delete(twoFactorSecrets)
        .where(and(eq(twoFactorSecrets.userId, target.userId), isNotNull(twoFactorSecrets.confirmedAt)))
        .returning({ userId: twoFactorSecrets.userId })
    ).length;
    if (removed === 0) return false;
    await tx.delete(twoFactorRecoveryCodes).where(eq(twoFactorRecoveryCodes.userId, target.userId));
    await tx.delete(twoFactorChallenges).where(eq(twoFactorChallenges.userId, target.userId));
    const ended = await invalidateUserSessions(tx, target.userId);
    await forgetDevices(tx, target.userId);
    await writeAuditLog(tx, {
      userId: actor.userId,
      actionType: "two_factor_reset",
      result: "success",
      details: { targetUserId: target.userId, email: target.email, sessionsEnded: ended },
      ipAddress: actor.ipAddress,
      userAgent: actor.userAgent,
    });
    return true;
  });
  if (!reset) return authFailure(409, "not_enrolled", NOT_ENROLLED_MESSAGE);
  noticeTwoFactorReset(target.email);
  return { ok: true, value: undefined };
}
