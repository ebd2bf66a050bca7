import { readOneCookie } from "../../platform/cookies.ts";
import { endSessionUrl } from "./client.ts";
import type { OidcSettings } from "../../config/oidc.ts";

/** Marks a browser whose session came from the provider, so that 'Sair' knows to end the provider's session too. */
export const SSO_MARKER_COOKIE = "b1_sso";

export function ssoMarkerCookieHeader(expiresAt: number, secure: boolean): string {
  const maxAge = Math.max(0, Math.floor((expiresAt - Date.now()) / 1000));
  return `${SSO_MARKER_COOKIE}=1; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${secure ? "; Secure" : ""}`;
}

export function clearSsoMarkerCookieHeader(secure: boolean): string {
  return `${SSO_MARKER_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0${secure ? "; Secure" : ""}`;
}

/** The provider's end-session URL after 'Sair' when `OIDC_LOGOUT=true` and this browser signed in through it; null → back to `/`. */
export async function ssoSignOutLocation(
  settings: OidcSettings | null,
  publicUrl: string,
  cookieHeader: string | null,
): Promise<string | null> {
  if (!settings?.logout || readOneCookie(cookieHeader, SSO_MARKER_COOKIE).value !== "1") return null;
  return await endSessionUrl(settings, publicUrl);
}
