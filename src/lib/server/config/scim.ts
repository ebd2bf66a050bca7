import { sha256 } from "../platform/hashing.ts";
import { parseRoleMap } from "./oidc.ts";
import { requireSystemRoles } from "./role-names.ts";
import { type Settings } from "../../settings.ts";

/** Shortest bearer token accepted: a guessable token would hand every account to whoever guesses it. */
export const SCIM_TOKEN_MIN_LENGTH = 32;

/** Directory provisioning (SCIM 2.0) settings, read from the environment by `readConfig`. */
export interface ScimSettings {
  /** SHA-256 of SCIM_TOKEN: the token itself is not kept in memory after start. */
  tokenHash: Uint8Array;
  /** Group name or external id → system role names: the same `OIDC_ROLE_MAP` corporate sign-in reads. */
  roleMap: ReadonlyMap<string, readonly string[]>;
}

/** Null (SCIM off, `/scim/v2` answers 404) unless SCIM_TOKEN is set; a short token stops the start. */
export function readScimSettings(env: Settings): ScimSettings | null {
  const token = env.SCIM_TOKEN?.trim() ?? "";
  if (!token) return null;
  if (token.length < SCIM_TOKEN_MIN_LENGTH) {
    throw new Error(
      `SCIM_TOKEN deve ter pelo menos ${SCIM_TOKEN_MIN_LENGTH} caracteres (recebidos: ${token.length}); gere com: openssl rand -hex 32`,
    );
  }
  const roleMap = parseRoleMap(env.OIDC_ROLE_MAP);
  requireSystemRoles("OIDC_ROLE_MAP", [...roleMap.values()].flat());
  return { tokenHash: sha256(token), roleMap };
}
