import { DEFAULT_SSO_BUTTON_LABEL } from "../../auth/sso-messages.ts";
import { requireSystemRoles } from "./role-names.ts";
import { type Settings } from "../../settings.ts";

/**
 * `amr` values (RFC 8176) that can name a second factor or a key bound to a device: `mfa` (Entra, Okta),
 * `mca`, `otp`, `hwk` (security key), `swk` (a key in software, e.g. a passkey), `sc` (smart card).
 * OIDC_MFA_AMR may list only these: `pwd` or `kba` would let a password alone stand for the code.
 */
export const MFA_AMR_VALUES: readonly string[] = ["mfa", "mca", "otp", "hwk", "swk", "sc"];

function csv(value: string | undefined): string[] {
  return [
    ...new Set(
      (value ?? "")
        .split(",")
        .map((item) => item.trim())
        .filter(Boolean),
    ),
  ];
}

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
  /**
   * ID-token `acr` values that mean the provider checked a second factor (OIDC_MFA_ACR); empty by
   * default: the provider's word never replaces the portal's own code unless the operator says so.
   */
  mfaAcrValues: readonly string[];
  /** ID-token `amr` values (RFC 8176, among MFA_AMR_VALUES) that mean the same (OIDC_MFA_AMR); empty by default. */
  mfaAmrValues: readonly string[];
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
export function readOidcSettings(env: Settings): OidcSettings | null {
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
    mfaAcrValues: csv(env.OIDC_MFA_ACR),
    mfaAmrValues: readMfaAmr(env.OIDC_MFA_AMR),
  };
}

/** OIDC_MFA_AMR: RFC 8176 names of a second factor only; anything else stops the start. */
function readMfaAmr(value: string | undefined): string[] {
  const values = csv(value);
  const refused = values.filter((method) => !MFA_AMR_VALUES.includes(method));
  if (refused.length) {
    throw new Error(
      `OIDC_MFA_AMR: ${refused.map((method) => JSON.stringify(method)).join(", ")} não indica(m) um segundo fator. ` +
        `Valores aceitos: ${MFA_AMR_VALUES.join(", ")} (ou deixe vazio para sempre pedir o código do portal).`,
    );
  }
  return values;
}
