import { encodeBase32LowerCaseNoPadding, encodeHexLowerCase } from "@oslojs/encoding";
import { and, eq, gt, lt, sql } from "drizzle-orm";
import { twoFactorChallenges } from "../../../../../db/schema/index.ts";
import { users } from "../../../../../db/schema/index.ts";
import { writeAuditLog, type AuditEntry, type RequestMeta } from "../../audit/audit.ts";
import { rateLimited } from "../guards.ts";
import { authFailure, type AuthResult } from "../result.ts";
import type { Db } from "../../data/db.ts";
import { sha256 } from "../../platform/hashing.ts";
import { createAuditedSession, type SignInSession } from "../../sessions/session.ts";
import { newDeviceOf, noticeNewDevice } from "../security-notices.ts";
import type { Attempt } from "../../throttle/throttle.ts";
import { linkAfterSecondFactor } from "../sso/link.ts";
import { acceptTotpCode, consumeRecoveryCode } from "./code.ts";
import { readTwoFactorStatus, WRONG_CODE_MESSAGE } from "./enrolment.ts";

/** The cookie holding the pending challenge; it is sent to the two-factor endpoint only. */
export const TWO_FACTOR_COOKIE = "b1_2fa";
export const TWO_FACTOR_PATH = "/dois-fatores";
const CHALLENGE_TTL_MS = 5 * 60 * 1000;
/** Codes a challenge checks before the password is asked again (which has its own limits); counted in `failures`. */
const MAX_FAILURES = 5;
export const CHALLENGE_EXPIRED_MESSAGE = "Sua verificação expirou. Entre novamente.";

function hashChallenge(token: string): string {
  return encodeHexLowerCase(sha256(token));
}

/** Password accepted for a user with a second factor: a short-lived challenge, not a session. */
export async function needsSecondFactor(db: Db, key: Buffer | null, userId: string): Promise<boolean> {
  return key !== null && (await readTwoFactorStatus(db, userId)).enrolled;
}

/**
 * A challenge for `userId`; `ssoLink`: after a corporate sign-in whose identity is not linked to the
 * account yet, the identity to link once the code is right (sso/link.ts), not before.
 */
export async function startTwoFactorChallenge(
  db: Db,
  userId: string,
  nextPath: string,
  now = Date.now(),
  ssoLink: { issuer: string; subject: string } | null = null,
): Promise<{ token: string; expiresAt: number }> {
  const token = encodeBase32LowerCaseNoPadding(crypto.getRandomValues(new Uint8Array(20)));
  const expiresAt = now + CHALLENGE_TTL_MS;
  await db.delete(twoFactorChallenges).where(lt(twoFactorChallenges.expiresAt, now));
  await db.insert(twoFactorChallenges).values({
    tokenHash: hashChallenge(token),
    userId,
    nextPath,
    expiresAt,
    ssoIssuer: ssoLink?.issuer ?? null,
    ssoSubject: ssoLink?.subject ?? null,
  });
  return { token, expiresAt };
}

export function challengeCookieHeader(token: string, secure: boolean): string {
  return `${TWO_FACTOR_COOKIE}=${token}; Path=/api/auth/two-factor; HttpOnly; SameSite=Strict; Max-Age=${CHALLENGE_TTL_MS / 1000}${secure ? "; Secure" : ""}`;
}

export function clearChallengeCookieHeader(secure: boolean): string {
  return `${TWO_FACTOR_COOKIE}=; Path=/api/auth/two-factor; HttpOnly; SameSite=Strict; Max-Age=0${secure ? "; Secure" : ""}`;
}

export function readChallengeCookie(cookieHeader: string | null): string | null {
  const match = new RegExp(`(?:^|;\\s*)${TWO_FACTOR_COOKIE}=([a-z2-7]{32})(?:;|$)`).exec(cookieHeader ?? "");
  return match?.[1] ?? null;
}

/** The live challenge behind a token, with its owner's e-mail. */
async function findChallenge(db: Db, token: string, now: number) {
  const [challenge] = await db
    .select({
      tokenHash: twoFactorChallenges.tokenHash,
      userId: twoFactorChallenges.userId,
      nextPath: twoFactorChallenges.nextPath,
      ssoIssuer: twoFactorChallenges.ssoIssuer,
      ssoSubject: twoFactorChallenges.ssoSubject,
      email: users.email,
    })
    .from(twoFactorChallenges)
    .innerJoin(users, eq(users.id, twoFactorChallenges.userId))
    .where(and(eq(twoFactorChallenges.tokenHash, hashChallenge(token)), gt(twoFactorChallenges.expiresAt, now)));
  return challenge;
}

export interface SecondFactorPassed {
  session: SignInSession;
  next: string;
}

/**
 * Takes one of the challenge's code checks, atomically: a challenge that has used up its checks
 * (or expired) gives none, so parallel requests on one challenge check at most MAX_FAILURES codes.
 */
async function takeCodeCheck(db: Db, token: string, now: number) {
  const [taken] = await db
    .update(twoFactorChallenges)
    .set({ failures: sql`${twoFactorChallenges.failures} + 1` })
    .where(
      and(
        eq(twoFactorChallenges.tokenHash, hashChallenge(token)),
        gt(twoFactorChallenges.expiresAt, now),
        lt(twoFactorChallenges.failures, MAX_FAILURES),
      ),
    )
    .returning({
      tokenHash: twoFactorChallenges.tokenHash,
      userId: twoFactorChallenges.userId,
      nextPath: twoFactorChallenges.nextPath,
      checks: twoFactorChallenges.failures,
    });
  return taken;
}

/** The code after the password: a 6-digit TOTP code or a recovery code turns the challenge into a session. */
export async function completeTwoFactorSignIn(
  db: Db,
  key: Buffer | null,
  token: string | null,
  code: string,
  meta: RequestMeta,
  attempt: Attempt,
  now = Date.now(),
): Promise<AuthResult<SecondFactorPassed>> {
  const challenge = token && key ? await findChallenge(db, token, now) : undefined;
  if (!challenge || !token || !key) return authFailure(401, "challenge_expired", CHALLENGE_EXPIRED_MESSAGE);
  if (await attempt.forAccount(challenge.userId, { userId: challenge.userId, email: challenge.email })) return rateLimited();
  const check = await takeCodeCheck(db, token, now);
  if (!check) {
    await attempt.notChecked();
    await db.delete(twoFactorChallenges).where(eq(twoFactorChallenges.tokenHash, challenge.tokenHash));
    return authFailure(401, "challenge_expired", CHALLENGE_EXPIRED_MESSAGE);
  }
  const typed = code.trim();
  const method = /^\d{6}$/.test(typed) ? "totp" : "recovery_code";
  const accepted =
    method === "totp"
      ? await acceptTotpCode(db, key, challenge.userId, typed, now)
      : await consumeRecoveryCode(db, challenge.userId, typed, now);
  const audit = { userId: challenge.userId, ...meta };
  if (!accepted) {
    await writeAuditLog(db, {
      ...audit,
      actionType: "two_factor_login_failure",
      result: "failure",
      details: { email: challenge.email, method },
    });
    if (check.checks >= MAX_FAILURES) {
      await db.delete(twoFactorChallenges).where(eq(twoFactorChallenges.tokenHash, challenge.tokenHash));
      return authFailure(401, "challenge_expired", CHALLENGE_EXPIRED_MESSAGE);
    }
    return authFailure(401, "invalid_code", WRONG_CODE_MESSAGE, { code: WRONG_CODE_MESSAGE });
  }
  await attempt.succeeded();
  const newDevice = await newDeviceOf(db, challenge.userId, meta.userAgent, now);
  const rows: AuditEntry[] = [];
  if (method === "recovery_code") {
    const left = (await readTwoFactorStatus(db, challenge.userId)).recoveryCodesLeft;
    rows.push({ ...audit, actionType: "two_factor_recovery_code_used", result: "success", details: { email: challenge.email, left } });
  }
  rows.push({ ...audit, actionType: "user_login_success", result: "success", details: { email: challenge.email, secondFactor: method } });
  // The challenge ends with the session and its rows, or not at all.
  const session = await db.transaction(async (tx) => {
    const [used] = await tx
      .delete(twoFactorChallenges)
      .where(eq(twoFactorChallenges.tokenHash, challenge.tokenHash))
      .returning({ tokenHash: twoFactorChallenges.tokenHash });
    // A parallel request with another right code already turned this challenge into a session.
    if (!used) return null;
    if (challenge.ssoIssuer !== null && challenge.ssoSubject !== null) {
      await linkAfterSecondFactor(tx, challenge.userId, { issuer: challenge.ssoIssuer, subject: challenge.ssoSubject }, method, meta);
    }
    return createAuditedSession(tx, challenge.userId, { ...meta, authMethod: "two_factor" }, rows, now);
  });
  if (!session) return authFailure(401, "challenge_expired", CHALLENGE_EXPIRED_MESSAGE);
  if (newDevice) noticeNewDevice(challenge.email, newDevice, meta, now);
  return { ok: true, value: { session, next: challenge.nextPath } };
}
