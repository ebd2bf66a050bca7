import { isIP } from "node:net";

/**
 * Who sent a request, for audit rows and rate limits: behind a trusted proxy (which overwrites
 * X-Forwarded-For) its first entry, when that is an IP address; anything else is the socket's
 * address, so a made-up value can neither name a fresh client to the throttle nor write free text
 * into the audit log.
 */
export function clientAddress(
  forwardedFor: string | string[] | undefined,
  socketAddress: string | undefined,
  trustProxy: boolean,
): string | null {
  if (trustProxy) {
    const first = (Array.isArray(forwardedFor) ? forwardedFor[0] : forwardedFor)?.split(",")[0]?.trim();
    if (first && isIP(first) !== 0) return first;
  }
  return socketAddress ?? null;
}
