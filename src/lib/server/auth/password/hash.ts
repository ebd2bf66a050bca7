/**
 * Passwords: Argon2id hashing (this file), the common-password list (common.ts) and the switch that
 * turns password sign-in off (switch.ts).
 */
import { hash, verify } from "@node-rs/argon2";

/** Argon2id cost (OWASP's second recommended set: 19 MiB, 2 passes, 1 lane). */
export const ARGON2_PARAMS = { memoryCost: 19456, timeCost: 2, parallelism: 1, outputLen: 32 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_PARAMS);
}

export async function verifyPasswordHash(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}
