import type { IncomingHttpHeaders } from "node:http";

/**
 * CSRF check for state-changing requests: the browser's Origin must be one of the portal's own
 * origins (PUBLIC_URL's, or without it the loopback spellings of the port; see config.ts).
 * Never the Host header, which the sender chooses. Requests without Origin are refused.
 */
export function isAcceptedOrigin(headers: IncomingHttpHeaders, acceptedOrigins: readonly string[]): boolean {
  const origin = headers.origin;
  return origin !== undefined && acceptedOrigins.includes(origin);
}

/** The refusal names the configured address (never the Origin received, which the sender chooses). */
export function originRefusalMessage(publicUrl: string): string {
  return `Origem da requisição não permitida: abra o portal em ${publicUrl} ou ajuste PUBLIC_URL.`;
}
