import { decodeBase32IgnorePadding } from "@oslojs/encoding";
import { generateHOTP } from "@oslojs/otp";

/** The 6-digit code an authenticator shows for `manualKey` (as the enrolment page prints it), `offset` 30-second steps from now. */
export function totp(manualKey: string, offset = 0): string {
  return totpAt(manualKey, totpStep() + offset);
}

/** The 30-second time-step now. A test that must name one step twice keeps it: `totp(key, 0)` read twice may straddle a step's end. */
export function totpStep(): number {
  return Math.floor(Date.now() / 30_000);
}

/** The 6-digit code for `manualKey` at the time-step `step`. */
export function totpAt(manualKey: string, step: number): string {
  return generateHOTP(decodeBase32IgnorePadding(manualKey.replace(/\s/g, "")), BigInt(step), 6);
}
