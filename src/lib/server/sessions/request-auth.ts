import { config } from "../config/config.ts";
import { getDb } from "../data/db.ts";
import { validateSessionToken, type ValidatedSession } from "./session.ts";
import { readSessionCookie } from "./cookie.ts";

/** Resolves the session cookie of a request into a session and principal, or null (also when two are sent). */
export async function resolveRequestAuth(cookieHeader: string | null | undefined): Promise<ValidatedSession | null> {
  const { token } = readSessionCookie(cookieHeader, config().secureCookies);
  return token ? await validateSessionToken(getDb(), token) : null;
}
