import { DEFAULT_SSO_BUTTON_LABEL } from "../../auth/sso-messages.ts";
import { requireSystemRoles } from "./role-names.ts";

/** Corporate sign-in (OpenID Connect) settings, read from the environment by `readConfig`. */
export interface OidcSettings {
  /** Issuer URL; its `/.well-known/openid-configuration` is discovered at the first sign-in. */
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Text of the button on /auth. */
  buttonLabel: string;
  /** Claim whose values map to portal roles (`groups`, `roles`…). */
  roleClaim: string;
  /** Claim value → system role names (an unknown name stops the start). */
  roleMap: ReadonlyMap<string, readonly string[]>;
  /** Send the browser to the provider's end-session endpoint after 'Sair'. */
  logout: boolean;
  /** ID-token `acr` values that mean the provider checked a second factor (OIDC_MFA_ACR); `amr` is read by RFC 8176's names. */
  mfaAcrValues: readonly string[];
}

/** `grupo-ti:admin,lideres:lider` → grupo-ti → [admin], lideres → [lider]; claim values keep their case, role names are lower-cased. */
export function parseRoleMap(value: string | undefined): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const pair of (value ?? "").split(",")) {
    const at = pair.lastIndexOf(":");
    if (at <= 0) continue;
    const claimValue = pair.slice(0, at).trim();
    const role = pair
      .slice(at + 1)
      .trim()
      .toLowerCase();
    if (!claimValue || !role) continue;
    map.set(claimValue, [...new Set([...(map.get(claimValue) ?? []), role])]);
  }
  return map;
}

/** Null (SSO off) unless issuer and client id are both set. */
export function readOidcSettings(env: NodeJS.ProcessEnv): OidcSettings | null {
  const issuer = env.OIDC_ISSUER?.trim() ?? "";
  const clientId = env.OIDC_CLIENT_ID?.trim() ?? "";
  if (!issuer || !clientId) return null;
  const roleMap = parseRoleMap(env.OIDC_ROLE_MAP);
  requireSystemRoles("OIDC_ROLE_MAP", [...roleMap.values()].flat());
  return {
    issuer,
    clientId,
    clientSecret: env.OIDC_CLIENT_SECRET ?? "",
    buttonLabel: env.OIDC_BUTTON_LABEL?.trim() || DEFAULT_SSO_BUTTON_LABEL,
    roleClaim: env.OIDC_ROLE_CLAIM?.trim() || "groups",
    roleMap,
    logout: env.OIDC_LOGOUT === "1" || env.OIDC_LOGOUT === "true",
    mfaAcrValues: (env.OIDC_MFA_ACR ?? "")
      .split(",")
      .map((value) => value.trim())
      .filter(Boolean),
  };
}
