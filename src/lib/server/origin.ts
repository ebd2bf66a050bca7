import type { IncomingHttpHeaders } from "node:http";

/**
 * CSRF check for state-changing requests: the browser's Origin must be the portal's own
 * (PUBLIC_URL or the Host it was reached at). Requests without Origin are refused.
 */
export function isSameOrigin(headers: IncomingHttpHeaders, publicUrl: string): boolean {
  const origin = headers.origin;
  if (!origin || origin === "null") return false;
  if (origin === new URL(publicUrl).origin) return true;
  const host = headers.host;
  return host !== undefined && (origin === `http://${host}` || origin === `https://${host}`);
}
