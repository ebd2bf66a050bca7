import type { IncomingHttpHeaders } from "node:http";

/**
 * CSRF check for state-changing requests: the browser's Origin must be PUBLIC_URL's origin.
 * Never the Host header, which the sender chooses. Requests without Origin are refused.
 */
export function isSameOrigin(headers: IncomingHttpHeaders, publicUrl: string): boolean {
  const origin = headers.origin;
  return origin !== undefined && origin === new URL(publicUrl).origin;
}
