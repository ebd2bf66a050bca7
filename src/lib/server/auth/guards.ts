import type { AuditActionType } from "../../audit/actions.ts";
import { DOMAIN_MESSAGE, isAllowedEmail, isAllowListEmpty } from "./allowed-email.ts";
import { writeAuditLog, type RequestMeta } from "../audit/audit.ts";
import { authFailure, type AuthFailure } from "./result.ts";
import type { Db } from "../data/db.ts";
import { beginAttempt, RATE_LIMIT_MESSAGE, type Attempt, type ThrottledFlow } from "../throttle/throttle.ts";
import { config } from "../config/config.ts";
import { findRememberedDevice } from "../sessions/remembered-device.ts";

/** The attempt a guard refuses, as its audit row names it (no action type: not audited). */
export interface GuardedAttempt {
  actionType: AuditActionType | null;
  email?: string;
  meta: RequestMeta;
}

/**
 * A request's attempt at a limited flow that names an account (sign-in, code, e-mail links): begun
 * with the remembered device its cookie proves, so the owner's browser is counted apart from strangers.
 */
export async function beginAccountAttempt(db: Db, flow: ThrottledFlow, request: Request, meta: RequestMeta): Promise<Attempt> {
  const device = await findRememberedDevice(db, request.headers.get("cookie"), config().secureCookies);
  return beginAttempt(db, flow, meta, device);
}

/** The answer to an attempt a limit refused (its `blocked` audit row is the throttle's). */
export function rateLimited(): AuthFailure {
  return authFailure(429, "rate_limited", RATE_LIMIT_MESSAGE);
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
