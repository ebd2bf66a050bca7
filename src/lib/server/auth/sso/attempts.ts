import { createHash, timingSafeEqual } from "node:crypto";
import { eq, lt } from "drizzle-orm";
import { oidcSignInAttempts } from "../../../../../db/schema/index.ts";
import type { Db } from "../../data/db.ts";
import { readOneCookie, type CookieRead } from "../../platform/cookies.ts";
import { client } from "./client.ts";

/**
 * A corporate sign-in under way. The browser keeps only `state` in a short-lived HttpOnly cookie;
 * the PKCE verifier and nonce stay in the database, and the row is deleted by the first callback
 * that presents it, so a state works once and only in the browser that started the sign-in.
 */
const OIDC_STATE_COOKIE = "b1_oidc_state";
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

/**
 * Over https the name carries `__Host-` (so Path=/, Secure, no Domain): only this very host can set
 * it, and a sibling subdomain cannot plant its own state for a login CSRF. Plain http has no such
 * guard: the cookie stays on the sign-in's own path.
 */
function stateCookie(secure: boolean): { name: string; attributes: string } {
  return secure
    ? { name: `__Host-${OIDC_STATE_COOKIE}`, attributes: "Path=/; HttpOnly; SameSite=Lax" }
    : { name: OIDC_STATE_COOKIE, attributes: `Path=${COOKIE_PATH}; HttpOnly; SameSite=Lax` };
}

export function stateCookieHeader(state: string, secure: boolean): string {
  const { name, attributes } = stateCookie(secure);
  return `${name}=${state}; ${attributes}; Max-Age=${ATTEMPT_TTL_MS / 1000}${secure ? "; Secure" : ""}`;
}

export function clearStateCookieHeader(secure: boolean): string {
  const { name, attributes } = stateCookie(secure);
  return `${name}=; ${attributes}; Max-Age=0${secure ? "; Secure" : ""}`;
}

/** The state this browser keeps; two state cookies (one planted beside ours) give none, with `conflict`. */
export function readStateCookie(cookieHeader: string | null | undefined, secure: boolean): CookieRead {
  return readOneCookie(cookieHeader, stateCookie(secure).name);
}
