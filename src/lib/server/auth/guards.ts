import type { AuditActionType } from "../../audit/actions.ts";
import { DOMAIN_MESSAGE, isAllowedEmail, isAllowListEmpty } from "./allowed-email.ts";
import { writeAuditLog, type RequestMeta } from "../audit/audit.ts";
import { auditBlockedAttempt } from "../throttle/blocked-audit.ts";
import { authFailure, type AuthFailure } from "./result.ts";
import type { Db } from "../data/db.ts";
import { consumeRateLimit, RATE_LIMITS, RATE_LIMIT_MESSAGE, type Limit } from "../throttle/rate-limit.ts";

/** The attempt a guard refuses, as its audit row names it (no action type: not audited). */
export interface GuardedAttempt {
  actionType: AuditActionType | null;
  email?: string;
  meta: RequestMeta;
}

export interface LimitCheck {
  key: string;
  limit: Limit;
}

/** The answer to an attempt over the limit under `key`, audited as `blocked` once per key and window, with a count. */
export async function refuseRateLimited(db: Db, key: string, attempt: GuardedAttempt): Promise<AuthFailure> {
  if (attempt.actionType) {
    await auditBlockedAttempt(db, key, {
      actionType: attempt.actionType,
      details: { ...(attempt.email ? { email: attempt.email } : {}), error: "rate_limited" },
      ...attempt.meta,
    });
  }
  return authFailure(429, "rate_limited", RATE_LIMIT_MESSAGE);
}

/** Counts the attempt against each limit in turn; the first one exceeded refuses. */
export async function refuseWhenRateLimited(db: Db, checks: LimitCheck[], attempt: GuardedAttempt): Promise<AuthFailure | null> {
  for (const check of checks) {
    if (!(await consumeRateLimit(db, check.key, check.limit))) return await refuseRateLimited(db, check.key, attempt);
  }
  return null;
}

/** The per-IP limit of each public auth flow, checked before the request body is read; reset and resend share one mail budget. */
const IP_LIMITS = {
  "sign-in": { prefix: "sign-in", limit: RATE_LIMITS.signInIp, actionType: "user_login_attempt" },
  "sign-up": { prefix: "sign-up", limit: RATE_LIMITS.signUpIp, actionType: "user_signup_attempt" },
  "reset-request": { prefix: "mail", limit: RATE_LIMITS.mailIp, actionType: "password_reset_request" },
  "resend-link": { prefix: "mail", limit: RATE_LIMITS.mailIp, actionType: "email_confirmation_resend" },
  "update-password": { prefix: "password-update", limit: RATE_LIMITS.passwordUpdateIp, actionType: null },
} as const satisfies Record<string, { prefix: string; limit: Limit; actionType: AuditActionType | null }>;

export type IpLimitedFlow = keyof typeof IP_LIMITS;

export async function refuseWhenIpRateLimited(db: Db, flow: IpLimitedFlow, meta: RequestMeta): Promise<AuthFailure | null> {
  const { prefix, limit, actionType } = IP_LIMITS[flow];
  return await refuseWhenRateLimited(db, [{ key: `${prefix}:ip:${meta.ipAddress ?? ""}`, limit }], { actionType, meta });
}

let warnedAllowListEmpty = false;

/** An unconfigured allow-list refuses everyone: plainly to the person, and once in the log for the operator. */
function refuseForEmptyAllowList(attempt: GuardedAttempt): AuthFailure {
  if (!warnedAllowListEmpty) {
    warnedAllowListEmpty = true;
    console.error(
      "[config] AUTH_ALLOWED_DOMAINS e AUTH_ALLOWED_EMAILS estão vazios: cadastro e login recusados para todos. Defina os domínios autorizados (veja .env.example).",
    );
  }
  const what = attempt.actionType === "user_signup_attempt" ? "Cadastro indisponível" : "Acesso indisponível";
  return authFailure(
    503,
    "allow_list_empty",
    `${what}: nenhum domínio de e-mail autorizado foi configurado. Contate o administrador do portal.`,
  );
}

/** The allow-list rule, audited as `invalid_domain` when it refuses. */
export async function refuseUnlessAllowedEmail(
  db: Db,
  email: string,
  attempt: GuardedAttempt,
  message = DOMAIN_MESSAGE,
): Promise<AuthFailure | null> {
  if (isAllowListEmpty()) return refuseForEmptyAllowList(attempt);
  if (isAllowedEmail(email)) return null;
  if (attempt.actionType) {
    await writeAuditLog(db, {
      actionType: attempt.actionType,
      result: "failure",
      details: { email, error: "invalid_domain" },
      ...attempt.meta,
    });
  }
  return authFailure(400, "invalid_domain", message);
}
