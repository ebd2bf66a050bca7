/**
 * The auth domain: everything that proves who someone is — sign-up, e-mail confirmation, password
 * sign-in and reset, the allow-list rule, accounts and their pending expiry, security notices to the
 * owner; two-factor/ (TOTP, challenges, recovery codes), sso/ (OpenID Connect) and password/
 * (Argon2id, common passwords) below it. Flows return results (result.ts) that endpoints map to HTTP;
 * every limited flow counts its attempt through throttle/.
 */
import type { SignInRequest } from "../../auth/schemas.ts";
import { safeNextPath } from "../../url-path.ts";
import { writeAuditLog, type RequestMeta } from "../audit/audit.ts";
import { rateLimited, refuseUnlessAllowedEmail } from "./guards.ts";
import { authFailure, type AuthResult } from "./result.ts";
import type { Db } from "../data/db.ts";
import { hashPassword, verifyPasswordHash } from "./password/hash.ts";
import { createAuditedSession, type SignInSession } from "../sessions/session.ts";
import { newDeviceOf, noticeNewDevice } from "./security-notices.ts";
import type { Attempt } from "../throttle/throttle.ts";
import { getUserByEmail, hasUsablePassword, normalizeEmail, roleNamesOf } from "./user.ts";
import { rolesRequireTwoFactor, TWO_FACTOR_ENROL_PATH } from "../../auth/two-factor-policy.ts";
import { config } from "../config/config.ts";
import { needsSecondFactor, startTwoFactorChallenge, TWO_FACTOR_PATH } from "./two-factor/sign-in.ts";

export const INVALID_CREDENTIALS = "E-mail ou senha incorretos. Verifique suas credenciais e tente novamente.";
export const ACCOUNT_DEACTIVATED = "Sua conta foi desativada pelo diretório da empresa. Fale com o administrador.";

const dummyHash = hashPassword("Senha@Inexistente1");

/** A session and its remembered device, or (second factor on file) a pending challenge whose token goes in its own cookie. */
export type SignedIn =
  | { session: SignInSession; next: string; twoFactorChallenge?: undefined }
  | { twoFactorChallenge: string; next: string; session?: undefined };

/** E-mail and password → a new session, or the refusal the form shows. */
export async function signIn(db: Db, input: SignInRequest, meta: RequestMeta, attempt: Attempt): Promise<AuthResult<SignedIn>> {
  const email = normalizeEmail(input.email);
  const actionType = "user_login_attempt";
  const refused = await refuseUnlessAllowedEmail(db, email, { actionType, email, meta });
  if (refused) return refused;
  if (await attempt.forAccount(email)) return rateLimited();
  const user = await getUserByEmail(db, email);
  const usableHash = user && hasUsablePassword(user) ? user.passwordHash : null;
  // No account, or one whose password was discarded: checked against the dummy hash, so every path costs the same.
  const matches = await verifyPasswordHash(usableHash ?? (await dummyHash), input.password);
  const valid = usableHash !== null && matches;
  if (user && valid) await attempt.succeeded();
  if (!user || !valid) {
    await writeAuditLog(db, {
      userId: user?.id,
      actionType,
      result: "failure",
      details: { email, error: "invalid_credentials" },
      ...meta,
    });
    return authFailure(401, "invalid_credentials", INVALID_CREDENTIALS);
  }
  if (user.emailConfirmedAt === null) {
    await writeAuditLog(db, {
      userId: user.id,
      actionType,
      result: "failure",
      details: { email, error: "email_not_confirmed" },
      ...meta,
    });
    return authFailure(403, "email_not_confirmed", "E-mail não confirmado");
  }
  if (user.deactivatedAt !== null) {
    await writeAuditLog(db, {
      userId: user.id,
      actionType,
      result: "blocked",
      details: { email, error: "account_deactivated" },
      ...meta,
    });
    return authFailure(403, "account_deactivated", ACCOUNT_DEACTIVATED);
  }
  if (await needsSecondFactor(db, config().twoFactor.key, user.id)) {
    const challenge = await startTwoFactorChallenge(db, user.id, safeNextPath(input.next));
    return { ok: true, value: { twoFactorChallenge: challenge.token, next: TWO_FACTOR_PATH } };
  }
  const newDevice = await newDeviceOf(db, user.id, meta.userAgent);
  const session = await createAuditedSession(db, user.id, meta, [
    { userId: user.id, actionType: "user_login_success", result: "success", details: { email }, ...meta },
  ]);
  if (newDevice) noticeNewDevice(email, newDevice, meta);
  const next = safeNextPath(input.next);
  // Someone who must turn on the second factor goes there first; the gate would stop them at the next page anyway.
  const { key, requiredRoles } = config().twoFactor;
  const mustEnrol = key !== null && rolesRequireTwoFactor(await roleNamesOf(db, user.id), requiredRoles);
  return { ok: true, value: { session, next: mustEnrol ? `${TWO_FACTOR_ENROL_PATH}?next=${encodeURIComponent(next)}` : next } };
}
