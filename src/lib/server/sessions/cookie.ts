/** The session cookie: reading it from a request and writing it to a response. */
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

const NO_SESSION: SessionCookieRead = { token: null, conflict: false };

/** Every value sent under exactly `name` (so `xb1_session` or `__Host-b1_session` is not `b1_session`). */
export function cookieValues(cookieHeader: string, name: string): string[] {
  const values: string[] = [];
  for (const pair of cookieHeader.split(";")) {
    const equals = pair.indexOf("=");
    if (equals !== -1 && pair.slice(0, equals).trim() === name) values.push(pair.slice(equals + 1).trim());
  }
  return values;
}

/** Reads the session token from a Cookie header; two session cookies sign nobody in. */
export function readSessionCookie(cookieHeader: string | undefined | null, secure: boolean): SessionCookieRead {
  const name = sessionCookieName(secure);
  if (!cookieHeader?.includes(name)) return NO_SESSION;
  const values = cookieValues(cookieHeader, name);
  if (values.length > 1) return { token: null, conflict: true };
  // Tokens are base32 and a dot: anything needing decoding is not ours.
  return values[0] ? { token: values[0], conflict: false } : NO_SESSION;
}

export function sessionCookieHeader(token: string, expiresAt: number, secure: boolean): string {
  const maxAge = Math.max(0, Math.floor((expiresAt - Date.now()) / 1000));
  return `${sessionCookieName(secure)}=${token}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${secure ? "; Secure" : ""}`;
}

export function deleteSessionCookieHeader(secure: boolean): string {
  return `${sessionCookieName(secure)}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0${secure ? "; Secure" : ""}`;
}
