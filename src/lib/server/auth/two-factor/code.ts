import { generateHOTP } from "@oslojs/otp";
import { encodeHexLowerCase } from "@oslojs/encoding";
import { and, eq, isNull } from "drizzle-orm";
import { twoFactorRecoveryCodes, twoFactorSecrets } from "../../../../../db/schema/index.ts";
import type { Db } from "../../data/db.ts";
import { constantTimeEqual, sha256 } from "../../platform/hashing.ts";
import { decryptTwoFactorSecret } from "./secret.ts";

export const TOTP_PERIOD_SECONDS = 30;
export const TOTP_DIGITS = 6;

/** A recovery code as typed: case and separators ignored, so `ABCD-EFGH` matches `abcdefgh`. */
export function normalizeRecoveryCode(code: string): string {
  return code.toLowerCase().replace(/[^a-z0-9]/g, "");
}

export function hashRecoveryCode(code: string): string {
  return encodeHexLowerCase(sha256(normalizeRecoveryCode(code)));
}

/**
 * The time-step whose code `code` is, one step of clock drift either way, skipping steps at or
 * before `lastUsedStep` (a code, or an older one, never works twice); null when none matches.
 */
export function matchTotpStep(secret: Uint8Array, lastUsedStep: number | null, code: string, now: number): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const current = Math.floor(now / (TOTP_PERIOD_SECONDS * 1000));
  for (const step of [current - 1, current, current + 1]) {
    if (lastUsedStep !== null && step <= lastUsedStep) continue;
    if (constantTimeEqual(Buffer.from(generateHOTP(secret, BigInt(step), TOTP_DIGITS)), Buffer.from(code))) return step;
  }
  return null;
}

/**
 * Checks a 6-digit code against the user's confirmed or pending key; the accepted step is
 * recorded against that very key, so a code checked just before the key was replaced fails.
 */
export async function acceptTotpCode(db: Db, key: Buffer, userId: string, code: string, now = Date.now()): Promise<boolean> {
  const row = (await db.select().from(twoFactorSecrets).where(eq(twoFactorSecrets.userId, userId)))[0];
  const secret = row && decryptTwoFactorSecret(key, row.secretEncrypted);
  if (!row || !secret) return false;
  const step = matchTotpStep(secret, row.lastUsedStep, code, now);
  if (step === null) return false;
  const updated = await db
    .update(twoFactorSecrets)
    .set({ lastUsedStep: step })
    .where(
      and(
        eq(twoFactorSecrets.userId, userId),
        eq(twoFactorSecrets.secretEncrypted, row.secretEncrypted),
        row.lastUsedStep === null ? isNull(twoFactorSecrets.lastUsedStep) : eq(twoFactorSecrets.lastUsedStep, row.lastUsedStep),
      ),
    )
    .returning({ userId: twoFactorSecrets.userId });
  return updated.length === 1;
}

/** Marks an unused recovery code of the user as used; false when unknown or already spent. */
export async function consumeRecoveryCode(db: Db, userId: string, code: string, now = Date.now()): Promise<boolean> {
  const updated = await db
    .update(twoFactorRecoveryCodes)
    .set({ usedAt: now })
    .where(
      and(
        eq(twoFactorRecoveryCodes.codeHash, hashRecoveryCode(code)),
        eq(twoFactorRecoveryCodes.userId, userId),
        isNull(twoFactorRecoveryCodes.usedAt),
      ),
    )
    .returning({ codeHash: twoFactorRecoveryCodes.codeHash });
  return updated.length === 1;
}
