/**
 * Corporate sign-in and the directory agree on who is who: the account SCIM created with
 * `externalId` equal to the provider's `sub` is the one corporate sign-in opens (even under another
 * e-mail), and an account the directory deactivated is refused by corporate sign-in; both engines.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SSO_ERROR_MESSAGES } from "../../../src/lib/auth/sso-messages";
import { freePort, startTestProvider, type TestProvider } from "../../support/oidc-provider";
import { startBuiltServer, type RunningServer } from "../../support/server";
import { findUser, refusalPage, sessionOwner, signInThroughProvider, ssoEnv } from "../../support/sso-portal";
import { scim, SCIM_TOKEN } from "../../support/scim";

const USER = "urn:ietf:params:scim:schemas:core:2.0:User";

describe("SCIM and corporate sign-in", () => {
  let provider: TestProvider;
  let server: RunningServer;

  beforeAll(async () => {
    const port = await freePort();
    provider = await startTestProvider(`http://127.0.0.1:${port}`, {
      "00u-rita": { email: "rita@b1.example.com", email_verified: true, name: "Rita Souza", groups: [] },
      "00u-bia": { email: "bia@b1.example.com", email_verified: true, name: "Bia Lopes", groups: [] },
    });
    server = await startBuiltServer({
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      RATE_LIMIT_MULTIPLIER: "100",
      SCIM_TOKEN,
      ...ssoEnv(provider.issuer),
    });
  });
  afterAll(async () => {
    await server?.stop();
    await provider?.stop();
  });

  it("opens the account whose externalId is the provider's sub, and links it", async () => {
    const created = await scim(server, "POST", "/Users", {
      schemas: [USER],
      userName: "rita.antiga@b1.example.com",
      externalId: "00u-rita",
      displayName: "Rita Souza",
      active: true,
    });
    expect(created.status).toBe(201);
    const { token } = await signInThroughProvider(server.url, "00u-rita");
    expect(await sessionOwner(server.db, token)).toBe(created.body!.id);
    expect(await findUser(server.db, "rita@b1.example.com")).toMatchObject({ id: created.body!.id, oidcSubject: "00u-rita" });
  });

  it("refuses an account the directory deactivated, with no session", async () => {
    const created = await scim(server, "POST", "/Users", {
      schemas: [USER],
      userName: "bia@b1.example.com",
      externalId: "00u-bia",
      active: false,
    });
    expect(created.status).toBe(201);
    const { token, location } = await signInThroughProvider(server.url, "00u-bia");
    expect(token).toBeFalsy();
    expect(location).toMatch(/sso_error=deactivated/);
    expect(await refusalPage(server.url, location)).toContain(SSO_ERROR_MESSAGES.deactivated);
  });
});
