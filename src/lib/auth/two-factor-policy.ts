import type { Principal } from "../routes.ts";

/** The page where a signed-in person turns on two-factor sign-in. */
export const TWO_FACTOR_ENROL_PATH = "/conta/dois-fatores";

export const TWO_FACTOR_REQUIRED_MESSAGE = "Ative a verificação em duas etapas em /conta/dois-fatores para continuar.";

/**
 * How the sign-in that opened a session was made: the password alone, the password and then a
 * TOTP or recovery code (or the code that confirmed enrolment in this session), or the corporate
 * identity provider, which answers for its own multi-factor sign-in.
 */
export type AuthMethod = "password" | "two_factor" | "sso";

/** API prefixes a person who still has to enrol may call: signing in and out, and enrolling. */
const OPEN_WHILE_ENROLLING = ["/api/auth/", "/api/conta/"];

/**
 * True when one of the person's roles requires a second factor and this session did not present
 * one. Read per session, never per account: enrolling later does not strengthen a session opened
 * with the password alone (and such sessions end at enrolment).
 */
export function mustEnrolTwoFactor(
  auth: { principal: Principal; session: { authMethod: AuthMethod } } | null,
  requiredRoles: readonly string[],
): boolean {
  if (!auth || auth.session.authMethod !== "password") return false;
  return rolesRequireTwoFactor(auth.principal.roles, requiredRoles);
}

/** Whether any of these roles is one that must present a second factor. */
export function rolesRequireTwoFactor(roles: readonly string[], requiredRoles: readonly string[]): boolean {
  return requiredRoles.some((role) => roles.includes(role));
}

/** Whether an API path stays open to someone who must enrol first. */
export function isOpenWhileEnrolling(apiPath: string): boolean {
  return OPEN_WHILE_ENROLLING.some((prefix) => apiPath.startsWith(prefix));
}
