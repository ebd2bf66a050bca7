import { decodeBase32IgnorePadding } from "@oslojs/encoding";
import { generateHOTP } from "@oslojs/otp";

/** The 6-digit code an authenticator shows for `manualKey` (as the enrolment page prints it), `offset` 30-second steps from now. */
export function totp(manualKey: string, offset = 0): string {
  return generateHOTP(decodeBase32IgnorePadding(manualKey.replace(/\s/g, "")), BigInt(Math.floor(Date.now() / 30_000) + offset), 6);
}
