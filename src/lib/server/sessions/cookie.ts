/** The session cookie: reading it from a request and writing it to a response. */
import { readOneCookie } from "../platform/cookies.ts";

export const SESSION_COOKIE = "b1_session";

/**
 * Over https the name carries `__Host-`: browsers then accept it only Secure, on Path=/ and
 * without Domain, i.e. set by this very host, so a sibling subdomain cannot plant one (plain
 * http has no such guard).
 */
export function sessionCookieName(secure: boolean): string {
  return secure ? `__Host-${SESSION_COOKIE}` : SESSION_COOKIE;
}

/** What a Cookie header says about the session: one token, none, or several (`conflict`). */
export interface SessionCookieRead {
  token: string | null;
  /** More than one cookie of the session's name: one was planted beside ours, and none is picked. */
  conflict: boolean;
}

/** Reads the session token from a Cookie header; two session cookies sign nobody in. */
export function readSessionCookie(cookieHeader: string | undefined | null, secure: boolean): SessionCookieRead {
  // Tokens are base32 and a dot: anything needing decoding is not ours.
  const { value, conflict } = readOneCookie(cookieHeader, sessionCookieName(secure));
  return { token: value, conflict };
}

export function sessionCookieHeader(token: string, expiresAt: number, secure: boolean): string {
  const maxAge = Math.max(0, Math.floor((expiresAt - Date.now()) / 1000));
  return `${sessionCookieName(secure)}=${token}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${secure ? "; Secure" : ""}`;
}

export function deleteSessionCookieHeader(secure: boolean): string {
  return `${sessionCookieName(secure)}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0${secure ? "; Secure" : ""}`;
}
