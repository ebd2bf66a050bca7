import type { Principal } from "../routes.ts";

/** The page where a signed-in person turns on two-factor sign-in. */
export const TWO_FACTOR_ENROL_PATH = "/conta/dois-fatores";

export const TWO_FACTOR_REQUIRED_MESSAGE = "Ative a verificação em duas etapas em /conta/dois-fatores para continuar.";

/** API prefixes a person who still has to enrol may call: signing in and out, and enrolling. */
const OPEN_WHILE_ENROLLING = ["/api/auth/", "/api/conta/"];

/** True when one of the person's roles requires a second factor they have not set up yet. */
export function mustEnrolTwoFactor(principal: Principal | null, requiredRoles: readonly string[]): boolean {
  if (!principal || principal.twoFactorEnrolled) return false;
  return requiredRoles.some((role) => principal.roles.includes(role));
}

/** Whether an API path stays open to someone who must enrol first. */
export function isOpenWhileEnrolling(apiPath: string): boolean {
  return OPEN_WHILE_ENROLLING.some((prefix) => apiPath.startsWith(prefix));
}
