import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

const IV_BYTES = 12;
const TAG_BYTES = 16;

/** AES-256-GCM of a TOTP key: base64url of iv ‖ ciphertext ‖ tag. */
export function encryptTwoFactorSecret(key: Buffer, secret: Uint8Array): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const body = Buffer.concat([cipher.update(secret), cipher.final()]);
  return Buffer.concat([iv, body, cipher.getAuthTag()]).toString("base64url");
}

/** The TOTP key, or null when the stored value was not sealed with this key (or was altered). */
export function decryptTwoFactorSecret(key: Buffer, stored: string): Uint8Array | null {
  const raw = Buffer.from(stored, "base64url");
  if (raw.length <= IV_BYTES + TAG_BYTES) return null;
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, raw.subarray(0, IV_BYTES));
    decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
    return new Uint8Array(Buffer.concat([decipher.update(raw.subarray(IV_BYTES, raw.length - TAG_BYTES)), decipher.final()]));
  } catch {
    return null;
  }
}
