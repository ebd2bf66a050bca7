import http from "node:http";
import { freePort } from "../../scripts/pg-cluster.mjs";
import type { AddressInfo } from "node:net";
import Provider, { type Configuration } from "oidc-provider";

/** What the test provider says about a person (its claims); the login name on its form is the key. */
export interface TestIdentity {
  email: string;
  email_verified: boolean;
  name: string;
  groups: string[];
  /** Authentication methods the provider puts in the ID token's `amr` (RFC 8176), e.g. ["pwd", "mfa"]; none when absent. */
  amr?: string[];
  /** The ID token's `acr`, when set. */
  acr?: string;
}

export const TEST_CLIENT = { id: "b1-portal", secret: "segredo-do-portal-de-teste" };

export interface TestProvider {
  issuer: string;
  /** Claims per login name; tests change them between sign-ins (new group, new name). */
  identities: Map<string, TestIdentity>;
  stop: () => Promise<void>;
}

/**
 * A real OpenID Connect provider (oidc-provider) on loopback with one confidential client, the
 * portal. Its development login form accepts any password; consent is granted automatically.
 * ID tokens carry only `sub` (and `amr`/`acr` when the identity has them), so the portal reads
 * e-mail, name and groups from userinfo, as it must with providers that keep ID tokens small.
 */
export async function startTestProvider(portalUrl: string, identities: Record<string, TestIdentity>): Promise<TestProvider> {
  const port = await freePort();
  const issuer = `http://127.0.0.1:${port}`;
  const known = new Map(Object.entries(identities));
  const configuration: Configuration = {
    clients: [
      {
        client_id: TEST_CLIENT.id,
        client_secret: TEST_CLIENT.secret,
        redirect_uris: [`${portalUrl}/api/auth/oidc/callback`],
        post_logout_redirect_uris: [`${portalUrl}/`],
        grant_types: ["authorization_code"],
        response_types: ["code"],
      },
    ],
    claims: { openid: ["sub", "amr", "acr"], email: ["email", "email_verified"], profile: ["name", "groups"] },
    async findAccount(_ctx, id) {
      const identity = known.get(id);
      if (!identity) return undefined;
      const { amr: _amr, acr: _acr, ...claims } = identity;
      return { accountId: id, claims: async () => ({ sub: id, ...claims }) };
    },
    async loadExistingGrant(ctx) {
      const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client!.clientId, accountId: ctx.oidc.session!.accountId! });
      grant.addOIDCScope("openid email profile");
      await grant.save();
      return grant;
    },
    acrValues: ["urn:teste:mfa", "urn:teste:senha"],
    cookies: { keys: ["chave-de-cookies-de-teste"] },
    features: { devInteractions: { enabled: true }, rpInitiatedLogout: { enabled: true } },
  };
  const provider = new Provider(issuer, configuration);
  const handle = provider.callback();
  // The development login form, answered here so the login can carry the identity's `amr`/`acr` into the ID token.
  const server = http.createServer((req, res) => {
    if (req.method !== "POST" || !/^\/interaction\/[^/]+$/.test(req.url ?? "")) return void handle(req, res);
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const login = new URLSearchParams(Buffer.concat(chunks).toString()).get("login") ?? "";
      const identity = known.get(login);
      const result = {
        login: { accountId: login, ...(identity?.amr ? { amr: identity.amr } : {}), ...(identity?.acr ? { acr: identity.acr } : {}) },
      };
      provider.interactionFinished(req, res, result, { mergeWithLastSubmission: false }).catch((error: unknown) => {
        res.statusCode = 500;
        res.end(String(error));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    issuer,
    identities: known,
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

// The portal's callback URL must be known before the provider starts: callers pick the port first.
export { freePort };
