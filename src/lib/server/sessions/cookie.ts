/** The session cookie: reading it from a request and writing it to a response. */
export const SESSION_COOKIE = "b1_session";

const COOKIE_PREFIX = `${SESSION_COOKIE}=`;

/** Reads the session token from a Cookie header without parsing every cookie. */
export function readSessionCookie(cookieHeader: string | undefined | null): string | null {
  if (!cookieHeader) return null;
  let at = cookieHeader.indexOf(COOKIE_PREFIX);
  // The name must start the header or follow "; " (so "xb1_session=" does not count).
  while (at > 0 && !/[;\s]/.test(cookieHeader[at - 1]!)) at = cookieHeader.indexOf(COOKIE_PREFIX, at + 1);
  if (at === -1) return null;
  const start = at + COOKIE_PREFIX.length;
  const end = cookieHeader.indexOf(";", start);
  const value = (end === -1 ? cookieHeader.slice(start) : cookieHeader.slice(start, end)).trim();
  // Tokens are base32 and a dot: anything needing decoding is not ours.
  return value || null;
}

export function sessionCookieHeader(token: string, expiresAt: number, secure: boolean): string {
  const maxAge = Math.max(0, Math.floor((expiresAt - Date.now()) / 1000));
  return `${SESSION_COOKIE}=${token}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${secure ? "; Secure" : ""}`;
}

export function deleteSessionCookieHeader(secure: boolean): string {
  return `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0${secure ? "; Secure" : ""}`;
}
