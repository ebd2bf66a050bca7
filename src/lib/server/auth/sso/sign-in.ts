/**
 * Corporate sign-in (OpenID Connect): the round trip to the provider (this file, client.ts), the
 * pending attempts with state, nonce and PKCE (attempts.ts), the claims held to the form rules
 * (claims.ts), the account linked by issuer + subject (account.ts), roles from the provider's groups
 * (roles.ts) and sign-out at the provider (sign-out.ts).
 */
import type { SsoErrorCode } from "../../../auth/sso-messages.ts";
import { safeNextPath } from "../../../url-path.ts";
import { writeAuditLog, type RequestMeta } from "../../audit/audit.ts";
import type { Db } from "../../data/db.ts";
import type { CookieRead } from "../../platform/cookies.ts";
import { openSsoAccount } from "./account.ts";
import { consumeSignInAttempt, startSignInAttempt } from "./attempts.ts";
import { readSsoClaims, type VerifiedClaims } from "./claims.ts";
import { callbackUrl, client, discoverProvider, exchangeCode } from "./client.ts";
import type { OidcSettings } from "../../config/oidc.ts";
import { beginAttempt } from "../../throttle/throttle.ts";
import type { SignInSession } from "../../sessions/session.ts";
import { noticeNewDevice } from "../security-notices.ts";
import { config } from "../../config/config.ts";
import { TWO_FACTOR_PATH } from "../two-factor/sign-in.ts";

export type SsoOutcome<T> = { ok: true; value: T } | { ok: false; code: SsoErrorCode };

/** A session to set, or (second factor on file) the challenge cookie's token and the code page, as after a password. */
export type SsoSignedIn =
  | { session: SignInSession; next: string; twoFactorChallenge?: undefined }
  | { twoFactorChallenge: string; next: string; session?: undefined };

interface SsoContext {
  db: Db;
  settings: OidcSettings;
  publicUrl: string;
  meta: RequestMeta;
}

/** The provider's error, for the log and the audit row: a name and a short reason, never a stack. */
function describeError(error: unknown): Record<string, string> {
  if (error instanceof client.AuthorizationResponseError || error instanceof client.ResponseBodyError) {
    return { error: error.error, ...(error.error_description ? { description: error.error_description.slice(0, 200) } : {}) };
  }
  if (error instanceof Error) return { error: error.name, description: error.message.slice(0, 200) };
  return { error: "unknown" };
}

async function providerError(ctx: SsoContext, step: string, error: unknown): Promise<{ ok: false; code: SsoErrorCode }> {
  const details = { step, ...describeError(error) };
  console.error("[sso] falha no provedor:", JSON.stringify(details));
  await writeAuditLog(ctx.db, { actionType: "sso_provider_error", result: "failure", details, ...ctx.meta });
  return { ok: false, code: step === "discovery" ? "unavailable" : "provider" };
}

/** 'Entrar com a conta corporativa': the provider's authorization URL (code + PKCE + state + nonce) and the state for the cookie. */
export async function beginSsoSignIn(ctx: SsoContext, next: string | null): Promise<SsoOutcome<{ url: string; state: string }>> {
  if ((await beginAttempt(ctx.db, "sso-start", ctx.meta)).refused) return { ok: false, code: "rate" };
  let configuration;
  try {
    configuration = await discoverProvider(ctx.settings);
  } catch (error) {
    return await providerError(ctx, "discovery", error);
  }
  const attempt = await startSignInAttempt(ctx.db, safeNextPath(next));
  const url = client.buildAuthorizationUrl(configuration, {
    redirect_uri: callbackUrl(ctx.publicUrl),
    scope: "openid email profile",
    response_type: "code",
    code_challenge: await client.calculatePKCECodeChallenge(attempt.codeVerifier),
    code_challenge_method: "S256",
    state: attempt.state,
    nonce: attempt.nonce,
  });
  return { ok: true, value: { url: url.href, state: attempt.state } };
}

/** The provider's redirect back: state checked against this browser's cookie, code exchanged once, account and session made. */
export async function completeSsoSignIn(
  ctx: SsoContext,
  query: URLSearchParams,
  cookieState: CookieRead,
): Promise<SsoOutcome<SsoSignedIn>> {
  const attempt = await consumeSignInAttempt(ctx.db, query.get("state") ?? "", cookieState.value);
  if (!attempt) {
    // Only forged or used states count, so a flood of them never refuses a sign-in that completes.
    if ((await beginAttempt(ctx.db, "sso-callback", ctx.meta)).refused) return { ok: false, code: "rate" };
    const error = cookieState.conflict ? "state_cookie_conflict" : cookieState.value ? "state_mismatch_or_used" : "state_cookie_missing";
    await writeAuditLog(ctx.db, { actionType: "sso_invalid_state", result: "failure", details: { error }, ...ctx.meta });
    return { ok: false, code: "state" };
  }
  let claims: VerifiedClaims;
  try {
    const configuration = await discoverProvider(ctx.settings);
    // The URL the provider redirected to, rebuilt on PUBLIC_URL (the gate already pinned the host).
    const currentUrl = new URL(`${callbackUrl(ctx.publicUrl)}?${query.toString()}`);
    claims = await exchangeCode(configuration, currentUrl, attempt, ctx.settings.roleClaim);
  } catch (error) {
    return await providerError(ctx, "callback", error);
  }
  const read = await readSsoClaims(ctx.db, claims, ctx.settings, ctx.meta);
  if (!read.ok) return read;
  const account = await openSsoAccount(ctx.db, ctx.settings, read.identity, ctx.meta, {
    twoFactorKey: config().twoFactor.key,
    nextPath: attempt.nextPath,
  });
  if (!account.ok) return account;
  if ("twoFactorChallenge" in account)
    return { ok: true, value: { twoFactorChallenge: account.twoFactorChallenge, next: TWO_FACTOR_PATH } };
  if (account.newDevice) noticeNewDevice(account.email, account.newDevice, ctx.meta);
  return { ok: true, value: { session: account.session, next: attempt.nextPath } };
}
