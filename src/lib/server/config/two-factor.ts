import { requireSystemRoles } from "./role-names.ts";
import { type Settings } from "../../settings.ts";

/** Two-factor sign-in settings, read from the environment by `readConfig`. */
export interface TwoFactorSettings {
  /** AES-256-GCM key for the TOTP secrets at rest (TWO_FACTOR_KEY, 32 bytes as 64 hex characters or base64); null turns two-factor off. */
  key: Buffer | null;
  /** System roles whose sessions must have presented a second factor before opening any signed-in page (TWO_FACTOR_REQUIRED_ROLES). */
  requiredRoles: readonly string[];
}

const DEFAULT_REQUIRED_ROLES = ["admin", "security"];

function parseKey(value: string): Buffer {
  const key = /^[0-9a-f]{64}$/i.test(value) ? Buffer.from(value, "hex") : Buffer.from(value, "base64");
  if (key.length !== 32) {
    throw new Error("TWO_FACTOR_KEY deve ter 32 bytes (64 caracteres hexadecimais ou base64); gere com: openssl rand -hex 32");
  }
  return key;
}

/**
 * Without a key two-factor is off and nothing is required, so a fresh clone starts with no
 * configuration; asking for it explicitly (TWO_FACTOR_REQUIRED_ROLES) without a key stops the start.
 */
export function readTwoFactorSettings(env: Settings): TwoFactorSettings {
  const rawKey = env.TWO_FACTOR_KEY?.trim() ?? "";
  const explicitRoles = env.TWO_FACTOR_REQUIRED_ROLES;
  const roles =
    explicitRoles === undefined
      ? DEFAULT_REQUIRED_ROLES
      : explicitRoles
          .split(",")
          .map((role) => role.trim().toLowerCase())
          .filter(Boolean);
  requireSystemRoles("TWO_FACTOR_REQUIRED_ROLES", roles);
  if (!rawKey) {
    if (explicitRoles !== undefined && roles.length > 0) {
      throw new Error(`TWO_FACTOR_REQUIRED_ROLES=${explicitRoles} exige TWO_FACTOR_KEY (gere com: openssl rand -hex 32)`);
    }
    return { key: null, requiredRoles: [] };
  }
  return { key: parseKey(rawKey), requiredRoles: roles };
}
