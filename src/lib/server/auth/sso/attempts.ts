import { createHash, timingSafeEqual } from "node:crypto";
import { eq, lt } from "drizzle-orm";
import { oidcSignInAttempts } from "../../../../../db/schema/index.ts";
import type { Db } from "../../data/db.ts";
import { client } from "./client.ts";

/**
 * A corporate sign-in under way. The browser keeps only `state` in a short-lived HttpOnly cookie;
 * the PKCE verifier and nonce stay in the database, and the row is deleted by the first callback
 * that presents it, so a state works once and only in the browser that started the sign-in.
 */
export const OIDC_STATE_COOKIE = "b1_oidc_state";
const COOKIE_PATH = "/api/auth/oidc";
export const ATTEMPT_TTL_MS = 10 * 60_000;

export interface SignInAttempt {
  state: string;
  codeVerifier: string;
  nonce: string;
  nextPath: string;
}

function hashState(state: string): string {
  return createHash("sha256").update(state).digest("hex");
}

export async function startSignInAttempt(db: Db, nextPath: string, now = Date.now()): Promise<SignInAttempt> {
  const attempt = { state: client.randomState(), codeVerifier: client.randomPKCECodeVerifier(), nonce: client.randomNonce(), nextPath };
  await db.transaction(async (tx) => {
    await tx.delete(oidcSignInAttempts).where(lt(oidcSignInAttempts.expiresAt, now));
    await tx.insert(oidcSignInAttempts).values({
      stateHash: hashState(attempt.state),
      codeVerifier: attempt.codeVerifier,
      nonce: attempt.nonce,
      nextPath,
      expiresAt: now + ATTEMPT_TTL_MS,
      createdAt: now,
    });
  });
  return attempt;
}

/** The attempt whose state the provider returned, if it matches this browser's cookie and has not expired; deleted either way. */
export async function consumeSignInAttempt(
  db: Db,
  returnedState: string,
  cookieState: string | null,
  now = Date.now(),
): Promise<SignInAttempt | null> {
  if (!returnedState || !cookieState) return null;
  const returned = Buffer.from(returnedState);
  const kept = Buffer.from(cookieState);
  if (returned.length !== kept.length || !timingSafeEqual(returned, kept)) return null;
  const row = (
    await db
      .delete(oidcSignInAttempts)
      .where(eq(oidcSignInAttempts.stateHash, hashState(returnedState)))
      .returning()
  )[0]!;
  if (!row || row.expiresAt <= now) return null;
  return { state: returnedState, codeVerifier: row.codeVerifier, nonce: row.nonce, nextPath: row.nextPath };
}

export function stateCookieHeader(state: string, secure: boolean): string {
  return `${OIDC_STATE_COOKIE}=${state}; Path=${COOKIE_PATH}; HttpOnly; SameSite=Lax; Max-Age=${ATTEMPT_TTL_MS / 1000}${secure ? "; Secure" : ""}`;
}

export function clearStateCookieHeader(secure: boolean): string {
  return `${OIDC_STATE_COOKIE}=; Path=${COOKIE_PATH}; HttpOnly; SameSite=Lax; Max-Age=0${secure ? "; Secure" : ""}`;
}

/** One cookie's value from a Cookie header. */
export function readCookie(cookieHeader: string | null | undefined, name: string): string | null {
  for (const part of (cookieHeader ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq !== -1 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim() || null;
  }
  return null;
}
