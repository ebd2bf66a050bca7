import { createTOTPKeyURI } from "@oslojs/otp";
import { encodeBase32LowerCaseNoPadding, encodeBase32UpperCaseNoPadding } from "@oslojs/encoding";
import { eq } from "drizzle-orm";
import { renderSVG } from "uqr";
import { twoFactorChallenges, twoFactorRecoveryCodes, twoFactorSecrets } from "../../../../../db/schema/index.ts";
import { writeAuditLog, type RequestMeta } from "../../audit/audit.ts";
import { authFailure, type AuthResult } from "../result.ts";
import type { Db } from "../../data/db.ts";
import { acceptTotpCode, hashRecoveryCode, TOTP_DIGITS, TOTP_PERIOD_SECONDS } from "./code.ts";
import { encryptTwoFactorSecret } from "./secret.ts";

export const TWO_FACTOR_OFF_MESSAGE = "A verificação em duas etapas não está configurada neste portal. Fale com o administrador.";
export const ALREADY_ENROLLED_MESSAGE = "A verificação em duas etapas já está ativa na sua conta.";
export const WRONG_CODE_MESSAGE = "Código inválido ou expirado. Confira o aplicativo autenticador e tente novamente.";
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

/** A new pending key for the user: the QR code (SVG) and the key to type by hand; a confirmed factor is left alone. */
export async function beginTwoFactorEnrolment(
  db: Db,
  key: Buffer | null,
  user: { userId: string; email: string },
): Promise<AuthResult<{ qrSvg: string; manualKey: string }>> {
  if (!key) return authFailure(409, "two_factor_off", TWO_FACTOR_OFF_MESSAGE);
  if ((await readTwoFactorStatus(db, user.userId)).enrolled) return authFailure(409, "already_enrolled", ALREADY_ENROLLED_MESSAGE);
  const secret = crypto.getRandomValues(new Uint8Array(20));
  const secretEncrypted = encryptTwoFactorSecret(key, secret);
  await db
    .insert(twoFactorSecrets)
    .values({ userId: user.userId, secretEncrypted })
    .onConflictDoUpdate({ target: twoFactorSecrets.userId, set: { secretEncrypted, lastUsedStep: null } });
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

/** The first code from the app confirms the pending key; the answer carries the recovery codes, the only time they are shown. */
export async function confirmTwoFactorEnrolment(
  db: Db,
  key: Buffer | null,
  user: { userId: string; email: string },
  code: string,
  meta: RequestMeta,
): Promise<AuthResult<{ recoveryCodes: string[] }>> {
  if (!key) return authFailure(409, "two_factor_off", TWO_FACTOR_OFF_MESSAGE);
  if ((await readTwoFactorStatus(db, user.userId)).enrolled) return authFailure(409, "already_enrolled", ALREADY_ENROLLED_MESSAGE);
  if (!(await acceptTotpCode(db, key, user.userId, code.trim())))
    return authFailure(400, "invalid_code", WRONG_CODE_MESSAGE, { code: WRONG_CODE_MESSAGE });
  const recoveryCodes = generateRecoveryCodes();
  await db.transaction(async (tx) => {
    await tx.update(twoFactorSecrets).set({ confirmedAt: Date.now() }).where(eq(twoFactorSecrets.userId, user.userId));
    await tx.delete(twoFactorRecoveryCodes).where(eq(twoFactorRecoveryCodes.userId, user.userId));
    await tx
      .insert(twoFactorRecoveryCodes)
      .values(recoveryCodes.map((recoveryCode) => ({ codeHash: hashRecoveryCode(recoveryCode), userId: user.userId })));
    await writeAuditLog(tx, {
      userId: user.userId,
      actionType: "two_factor_enabled",
      result: "success",
      details: { email: user.email },
      ...meta,
    });
  });
  return { ok: true, value: { recoveryCodes } };
}

/** An administrator removes a user's second factor (lost phone): they enrol again at their next sign-in. */
export async function resetTwoFactor(
  db: Db,
  target: { userId: string; email: string },
  actor: { userId: string } & RequestMeta,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const removed = (
      await tx.delete(twoFactorSecrets).where(eq(twoFactorSecrets.userId, target.userId)).returning({ userId: twoFactorSecrets.userId })
    ).length;
    await tx.delete(twoFactorRecoveryCodes).where(eq(twoFactorRecoveryCodes.userId, target.userId));
    await tx.delete(twoFactorChallenges).where(eq(twoFactorChallenges.userId, target.userId));
    if (removed === 0) return false;
    await writeAuditLog(tx, {
      userId: actor.userId,
      actionType: "two_factor_reset",
      result: "success",
      details: { targetUserId: target.userId, email: target.email },
      ipAddress: actor.ipAddress,
      userAgent: actor.userAgent,
    });
    return true;
  });
}
