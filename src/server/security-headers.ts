/** The policy of every response that is not a page: it loads nothing and nobody may frame it. */
export const NON_PAGE_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/** Scripts served as files: a Worker takes its policy from its own response (Pagefind's fetches its index and WebAssembly). */
export const SCRIPT_FILE_CSP =
  "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";

/** Header-only directive (a <meta> policy cannot carry it): no page of the portal is ever framed. */
export const FRAME_ANCESTORS = "frame-ancestors 'none'";

/**
 * Headers the gate puts on every response it sends or hands to the adapter: pages replace the
 * CSP with their own (hashes of their scripts). HSTS only when the portal is reached over https.
 */
export function securityHeaders(publicUrl: string): Readonly<Record<string, string>> {
  const headers: Record<string, string> = {
    "Content-Security-Policy": NON_PAGE_CSP,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=(), browsing-topics=()",
  };
  if (publicUrl.startsWith("https://")) headers["Strict-Transport-Security"] = "max-age=31536000; includeSubDomains";
  return headers;
}
