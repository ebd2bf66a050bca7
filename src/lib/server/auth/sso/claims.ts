import { ssoClaimsSchema } from "../../../auth/schemas.ts";
import type { SsoErrorCode } from "../../../auth/sso-messages.ts";
import { writeAuditLog, type RequestMeta } from "../../audit/audit.ts";
import type { Db } from "../../data/db.ts";
import type { OidcSettings } from "../../config/oidc.ts";
import { normalizeEmail } from "../user.ts";

/** The person a verified ID token names, in the form the portal stores. */
export interface SsoIdentity {
  /** `iss` + `sub`: who the person is at the provider, whatever their e-mail says today. */
  issuer: string;
  subject: string;
  /** Lower-cased; passed the sign-up form's e-mail rule as sent. */
  email: string;
  /** NFC; passed the sign-up form's name rule; empty when the provider sends no name. */
  fullName: string;
  /** The raw role claim, mapped through `OIDC_ROLE_MAP` later. */
  roleClaim: unknown;
  /**
   * The provider says, in a claim the operator configured, that it checked a second factor
   * (providerAssertsMfa); the portal's own is then not asked again of an account made by corporate
   * sign-in that holds no admin or security role (account.ts).
   */
  mfaAsserted: boolean;
}

export type ReadClaimsResult = { ok: true; identity: SsoIdentity } | { ok: false; code: SsoErrorCode };

/** The claims of a verified ID token (which always names `iss` and `sub`), completed from userinfo. */
export type VerifiedClaims = Record<string, unknown> & { iss: string; sub: string };

const text = (value: unknown) => (typeof value === "string" ? value.trim() : "");

/** `name`, else given + family name; empty when the provider sends neither. */
export function fullNameFromClaims(claims: Record<string, unknown>): string {
  return text(claims.name) || [text(claims.given_name), text(claims.family_name)].filter(Boolean).join(" ");
}

/**
 * The ID token's `amr` names a method OIDC_MFA_AMR lists, or its `acr` is one OIDC_MFA_ACR lists.
 * Both lists are empty by default, so with no setting the provider's claim counts for nothing.
 * Whether it may stand for the portal's own code is decided per account (account.ts).
 */
export function providerAssertsMfa(
  claims: Record<string, unknown>,
  settings: Pick<OidcSettings, "mfaAcrValues" | "mfaAmrValues">,
): boolean {
  const amr = Array.isArray(claims.amr) ? claims.amr : [];
  if (amr.some((method) => typeof method === "string" && settings.mfaAmrValues.includes(method))) return true;
  return typeof claims.acr === "string" && settings.mfaAcrValues.includes(claims.acr);
}

/** A refused value for the audit row: anything outside printable ASCII spelled `\u{…}`, so no bidi or control character reaches the log viewer. */
export function spellOut(value: string): string {
  return [...value.slice(0, 300)].map((char) => (/^[\x20-\x7e]$/.test(char) ? char : `\\u{${char.codePointAt(0)!.toString(16)}}`)).join("");
}

/**
 * The identity in verified claims, held to the same rules as the password forms; a missing or
 * unverified e-mail, or an e-mail or name the forms would refuse, is audited and refused.
 */
export async function readSsoClaims(
  db: Db,
  claims: VerifiedClaims,
  settings: Pick<OidcSettings, "roleClaim" | "mfaAcrValues" | "mfaAmrValues">,
  meta: RequestMeta,
): Promise<ReadClaimsResult> {
  const who = { issuer: claims.iss, subject: claims.sub };
  if (typeof claims.email !== "string" || claims.email === "" || claims.email_verified !== true) {
    const email = typeof claims.email === "string" ? spellOut(claims.email) : null;
    await writeAuditLog(db, { actionType: "sso_email_unverified", result: "failure", details: { email, ...who }, ...meta });
    return { ok: false, code: "email" };
  }
  const fullName = fullNameFromClaims(claims);
  const parsed = ssoClaimsSchema.safeParse({ email: claims.email, fullName });
  if (!parsed.success) {
    const field = parsed.error.issues[0]!.path[0] === "email" ? "email" : "name";
    await writeAuditLog(db, {
      actionType: "sso_claims_refused",
      result: "failure",
      details: { field, error: `invalid_${field}`, value: spellOut(field === "email" ? claims.email : fullName), ...who },
      ...meta,
    });
    return { ok: false, code: field === "email" ? "email_invalid" : "name_invalid" };
  }
  const { email, fullName: name } = parsed.data;
  const identity = {
    ...who,
    email: normalizeEmail(email),
    fullName: name,
    roleClaim: claims[settings.roleClaim],
    mfaAsserted: providerAssertsMfa(claims, settings),
  };
  return { ok: true, identity };
}
