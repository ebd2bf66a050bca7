import type { SignInRequest } from "../forms.ts";
import { safeNextPath } from "../url-path.ts";
import { writeAuditLog, type RequestMeta } from "./audit.ts";
import { refuseUnlessAllowedEmail, refuseWhenRateLimited } from "./auth-guards.ts";
import { authFailure, type AuthResult } from "./auth-result.ts";
import type { Db } from "./db.ts";
import { hashPassword, verifyPasswordHash } from "./password.ts";
import { LIMITS } from "./rate-limit.ts";
import { createSession } from "./session.ts";
import { getUserByEmail, normalizeEmail } from "./user.ts";

export const INVALID_CREDENTIALS = "E-mail ou senha incorretos. Verifique suas credenciais e tente novamente.";

// Unknown e-mails are verified against this hash so both paths cost the same Argon2 time.
const dummyHash = hashPassword("Senha@Inexistente1");

export interface SignedIn {
  session: { token: string; expiresAt: number };
  next: string;
}

/** E-mail and password → a new session, or the refusal the form shows. */
export async function signIn(db: Db, input: SignInRequest, meta: RequestMeta): Promise<AuthResult<SignedIn>> {
  const email = normalizeEmail(input.email);
  const attempt = { actionType: "user_login_attempt", email, meta } as const;
  const refused =
    refuseWhenRateLimited(db, [{ key: `sign-in:email:${email}`, limit: LIMITS.signInEmail }], attempt) ??
    refuseUnlessAllowedEmail(db, email, attempt);
  if (refused) return refused;
  const user = getUserByEmail(db, email);
  const valid = await verifyPasswordHash(user?.passwordHash ?? (await dummyHash), input.password);
  if (!user || !valid) {
    writeAuditLog(db, {
      userId: user?.id,
      actionType: attempt.actionType,
      result: "failure",
      details: { email, error: "invalid_credentials" },
      ...meta,
    });
    return authFailure(401, "invalid_credentials", INVALID_CREDENTIALS);
  }
  if (user.emailConfirmedAt === null) {
    writeAuditLog(db, {
      userId: user.id,
      actionType: attempt.actionType,
      result: "failure",
      details: { email, error: "email_not_confirmed" },
      ...meta,
    });
    return authFailure(403, "email_not_confirmed", "E-mail não confirmado");
  }
  const session = createSession(db, user.id, meta);
  writeAuditLog(db, { userId: user.id, actionType: "user_login_success", result: "success", details: { email }, ...meta });
  return { ok: true, value: { session, next: safeNextPath(input.next) } };
}
