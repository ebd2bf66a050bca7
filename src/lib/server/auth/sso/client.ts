import * as client from "openid-client";
import type { OidcSettings } from "../../config/oidc.ts";
import type { VerifiedClaims } from "./claims.ts";

/** The provider's metadata and keys, discovered once per process and again after a failure. */
let discovered: { key: string; configuration: Promise<client.Configuration> } | undefined;

/** Plain http is accepted only for a provider on this machine (local Keycloak, tests); anything else must be https. */
export function isLoopbackHttp(url: URL): boolean {
  return url.protocol === "http:" && ["127.0.0.1", "localhost", "[::1]"].includes(url.hostname);
}

/** Discovery from `OIDC_ISSUER`; a failed attempt is forgotten so the next sign-in retries. */
export function discoverProvider(settings: OidcSettings): Promise<client.Configuration> {
  const key = `${settings.issuer}\n${settings.clientId}\n${settings.clientSecret}`;
  if (discovered?.key !== key) {
    const issuer = new URL(settings.issuer);
    const configuration = client.discovery(
      issuer,
      settings.clientId,
      undefined,
      settings.clientSecret ? client.ClientSecretBasic(settings.clientSecret) : client.None(),
      { timeout: 10, execute: isLoopbackHttp(issuer) ? [client.allowInsecureRequests] : [] },
    );
    const entry = { key, configuration };
    configuration.catch(() => {
      if (discovered === entry) discovered = undefined;
    });
    discovered = entry;
  }
  return discovered.configuration;
}

export function callbackUrl(publicUrl: string): string {
  return `${publicUrl}/api/auth/oidc/callback`;
}

/** The claims of a verified ID token, completed from the userinfo endpoint when the token omits e-mail or the role claim. */
export async function exchangeCode(
  configuration: client.Configuration,
  currentUrl: URL,
  checks: { codeVerifier: string; state: string; nonce: string },
  roleClaim: string,
): Promise<VerifiedClaims> {
  const tokens = await client.authorizationCodeGrant(configuration, currentUrl, {
    pkceCodeVerifier: checks.codeVerifier,
    expectedState: checks.state,
    expectedNonce: checks.nonce,
    idTokenExpected: true,
  });
  const idClaims = tokens.claims()!;
  const needsUserInfo = idClaims.email === undefined || idClaims[roleClaim] === undefined;
  if (!needsUserInfo || !tokens.access_token || !configuration.serverMetadata().userinfo_endpoint) return { ...idClaims };
  const { amr: _amr, acr: _acr, ...userInfo } = await client.fetchUserInfo(configuration, tokens.access_token, idClaims.sub);
  // The signed ID token wins where both carry a claim; how the person signed in (`amr`, `acr`) is read from it alone.
  return { ...userInfo, ...idClaims };
}

/** Where 'Sair' sends the browser when the provider offers an end-session endpoint; null otherwise. */
export async function endSessionUrl(settings: OidcSettings, publicUrl: string): Promise<string | null> {
  try {
    const configuration = await discoverProvider(settings);
    if (!configuration.serverMetadata().end_session_endpoint) return null;
    return client.buildEndSessionUrl(configuration, { client_id: settings.clientId, post_logout_redirect_uri: `${publicUrl}/` }).href;
  } catch (error) {
    console.error("[sso] descoberta do provedor falhou no logout:", error instanceof Error ? error.message : error);
    return null;
  }
}

export { client };
