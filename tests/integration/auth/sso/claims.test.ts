// What the provider says about a person passes the same e-mail and name rules as the password forms.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SSO_ERROR_MESSAGES } from "../../../../src/lib/auth/sso-messages";
import { freePort, startTestProvider, type TestIdentity, type TestProvider } from "../../../support/oidc-provider";
import { startBuiltServer, type RunningServer } from "../../../support/server";
import { auditRows, findUser, refusalPage, sessionOwner, signInThroughProvider, ssoEnv } from "../../../support/sso-portal";

let provider: TestProvider;
let server: RunningServer;

const person = (email: string, name = "Pessoa Corporativa"): TestIdentity => ({ email, email_verified: true, name, groups: ["grupo-ti"] });

beforeAll(async () => {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  provider = await startTestProvider(url, { katia: person("katia@b1.example.com", "Katia Lima") });
  server = await startBuiltServer({ PORT: String(port), PUBLIC_URL: url, RATE_LIMIT_MULTIPLIER: "100", ...ssoEnv(provider.issuer) });
});
afterAll(async () => {
  await server?.stop();
  await provider?.stop();
});

/** Signs in as a new identity with these claims; the refusal must be the Portuguese page, an audit row, and nothing stored. */
async function expectRefused(login: string, identity: TestIdentity, code: "email_invalid" | "name_invalid", field: "email" | "name") {
  provider.identities.set(login, identity);
  const auditsBefore = (await auditRows(server.db, "sso_claims_refused")).length;
  const { location, token } = await signInThroughProvider(server.url, login);
  expect(location).toBe(`/auth?sso_error=${code}`);
  expect(token).toBeUndefined();
  expect(await refusalPage(server.url, location)).toContain(SSO_ERROR_MESSAGES[code]);
  const audits = await auditRows(server.db, "sso_claims_refused");
  expect(audits).toHaveLength(auditsBefore + 1);
  expect(audits.at(-1)).toMatchObject({ result: "failure", userId: null, details: { field, subject: login, issuer: provider.issuer } });
  // The refused value is recorded with its invisible characters spelled out, never raw.
  expect(JSON.stringify(audits.at(-1)!.details)).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/);
}

describe("e-mail claims", () => {
  it("'Katia@' written with the Kelvin sign (U+212A) does not open katia@'s account", async () => {
    const katia = await signInThroughProvider(server.url, "katia");
    expect(katia.location).toBe("/");
    const katiaId = await sessionOwner(server.db, katia.token);
    await expectRefused("kelvin", person("\u212Aatia@b1.example.com"), "email_invalid", "email");
    expect((await findUser(server.db, "katia@b1.example.com"))?.id).toBe(katiaId);
    expect((await auditRows(server.db, "sso_claims_refused")).at(-1)?.details).toMatchObject({ value: "\\u{212a}atia@b1.example.com" });
  });

  it("the Kelvin spelling of a new address creates no account", async () => {
    await expectRefused("kelvin-novo", person("\u212Aarla@b1.example.com"), "email_invalid", "email");
    expect(await findUser(server.db, "karla@b1.example.com")).toBeNull();
  });

  it.each([
    ["em-space", "\u2003ana.espaco@b1.example.com\u3000"],
    ["nbsp", "ana.nbsp@b1.example.com\u00a0"],
    ["bom", "\ufeffana.bom@b1.example.com"],
  ])("an address wrapped in Unicode spaces (%s) is refused, not trimmed", async (login, email) => {
    await expectRefused(`espaco-${login}`, person(email), "email_invalid", "email");
    expect(
      await findUser(
        server.db,
        email
          .trim()
          .replace(/^\ufeff/, "")
          .toLowerCase(),
      ),
    ).toBeNull();
  });

  it("a spreadsheet formula as the local part never becomes an account", async () => {
    const email = '=HYPERLINK("https://phish.example/x","clique")@b1.example.com';
    await expectRefused("formula", person(email), "email_invalid", "email");
    expect(await findUser(server.db, email.toLowerCase())).toBeNull();
  });
});

describe("name claims", () => {
  it.each([
    ["rlo", "Katia \u202Egnp.exe"],
    ["zero-width", "Ka\u200Btia Lima"],
    ["nul", "Katia\u0000 Lima"],
    ["bel", "Katia Lima\u0007"],
    ["one-letter", "K"],
    ["too-long", "K".repeat(121)],
  ])("a name the sign-up form refuses (%s) is refused, and no account is made", async (login, name) => {
    await expectRefused(`nome-${login}`, person(`nome-${login}@b1.example.com`, name), "name_invalid", "name");
    expect(await findUser(server.db, `nome-${login}@b1.example.com`)).toBeNull();
  });

  it("a refused name on a later sign-in leaves the stored name as it was", async () => {
    await expectRefused("katia", person("katia@b1.example.com", "Katia\u202E Lima"), "name_invalid", "name");
    expect((await findUser(server.db, "katia@b1.example.com"))?.fullName).toBe("Katia Lima");
  });

  it("a decomposed name is stored in NFC", async () => {
    provider.identities.set("jose", person("jose@b1.example.com", "Jose\u0301 Conceic\u0327a\u0303o"));
    expect((await signInThroughProvider(server.url, "jose")).location).toBe("/");
    expect((await findUser(server.db, "jose@b1.example.com"))?.fullName).toBe("Jos\u00e9 Concei\u00e7\u00e3o");
  });
});
