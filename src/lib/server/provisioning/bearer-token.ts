import type { ScimSettings } from "../config/scim.ts";
import { constantTimeEqual, sha256 } from "../platform/hashing.ts";

/**
 * True when the Authorization header carries the configured SCIM token. Both sides are compared
 * as SHA-256 digests, so the comparison takes the same time whatever the length or content sent.
 */
export function isAcceptedScimToken(settings: ScimSettings, authorization: string | undefined): boolean {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "");
  if (!match) return false;
  return constantTimeEqual(sha256(match[1]!), settings.tokenHash);
}
