import { getDb } from "./db.ts";
import { readSessionCookie, validateSessionToken, type ValidatedSession } from "./session.ts";

/** Resolves the session cookie of a request into a session and principal, or null. */
export function resolveRequestAuth(cookieHeader: string | null | undefined): ValidatedSession | null {
  const token = readSessionCookie(cookieHeader);
  return token ? validateSessionToken(getDb(), token) : null;
}
