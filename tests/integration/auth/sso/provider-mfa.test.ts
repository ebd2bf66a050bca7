/**
 * The identity provider's word never replaces the portal's own second factor unless the operator
 * says which `amr`/`acr` values count (OIDC_MFA_AMR / OIDC_MFA_ACR, empty by default), and even then
 * never for an account holding admin or security or made outside corporate sign-in (the command
 * line's emergency admin above all). An account's link to a provider identity (`oidc_issuer` /
 * `oidc_subject`) is written only once the portal's second factor is passed: an identity that only
 * passed the provider binds nothing, and the owner's real identity is not refused afterwards.
 * Both engines (the built gate on SQLite, or on PostgreSQL in that pass).
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { roles, userRoles, users } from "../../../../db/schema/index";
import { createUser } from "../../../../src/lib/server/auth/user";
import { createSession } from "../../../../src/lib/server/sessions/session";
import { freePort, startTestProvider, type TestIdentity, type TestProvider } from "../../../support/oidc-provider";
import { startBuiltServer, type RunningServer } from "../../../support/server";
import { auditRows, findUser, sessionOwner, signInThroughProvider, ssoEnv } from "../../../support/sso-portal";
import { totp } from "../../../support/totp";

const TWO_FACTOR_KEY = "e".repeat(64);
const who = (email: string, extra: Partial<TestIdentity> = {}): TestIdentity => ({
  email,
  email_verified: true,
  name: "Pessoa Teste",
  groups: [],
  ...extra,
});

interface Portal {
  provider: TestProvider;
  server: RunningServer;
}

async function startPortal(identities: Record<string, TestIdentity>, env: Record<string, string> = {}): Promise<Portal> {
  const port = await freePort();
  const provider = await startTestProvider(`http://127.0.0.1:${port}`, identities);
  const server = await startBuiltServer({
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    RATE_LIMIT_MULTIPLIER: "100",
    TWO_FACTOR_KEY,
    ...ssoEnv(provider.issuer),
    ...env,
  });
  return { provider, server };
}

async function stopPortal(portal: Portal | undefined) {
  await portal?.server.stop();
  await portal?.provider.stop();
}

/** Enrols a second factor through the account page with a fresh session of the user; the key shown. */
async function enrol(server: RunningServer, userId: string): Promise<string> {
  const { token } = await createSession(server.db, userId);
  const call = (method: string, body: unknown) =>
    fetch(`${server.url}/api/conta/dois-fatores`, {
      method,
      headers: { cookie: `b1_session=${token}`, origin: server.url, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  const begun = await call("POST", {});
  expect(begun.status).toBe(200);
  const { manualKey } = (await begun.json()) as { manualKey: string };
  expect((await call("PUT", { code: totp(manualKey, 0) })).status).toBe(200);
  return manualKey;
}

/** An account made by corporate sign-in (its first sign-in), with TOTP enrolled afterwards. */
async function ssoMadeWithTotp(portal: Portal, login: string): Promise<{ userId: string; manualKey: string }> {
  const first = await signInThroughProvider(portal.server.url, login);
  const userId = await sessionOwner(portal.server.db, first.token);
  expect(userId).not.toBeNull();
  return { userId: userId!, manualKey: await enrol(portal.server, userId!) };
}

async function handMade(server: RunningServer, email: string, roleNames: string[]) {
  const made = await createUser(server.db, { email, fullName: "Pessoa Teste", password: "Senha@Teste1", roleNames, confirmed: true });
  if (!made.ok) throw new Error(made.error);
  return made.userId;
}

async function giveRole(server: RunningServer, userId: string, name: string) {
  const [role] = await server.db.select({ id: roles.id }).from(roles).where(eq(roles.name, name));
  await server.db.insert(userRoles).values({ userId, roleId: role!.id, source: "manual" });
}

/** The code page, no session: the portal asked for its own second factor. */
function expectCodeAsked(result: { token: string | undefined; location: string | null }) {
  expect(result.token).toBeUndefined();
  expect(result.location).toBe("/dois-fatores");
}

async function typeCode(server: RunningServer, challenge: string, code: string) {
  return fetch(`${server.url}/api/auth/two-factor`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: server.url, cookie: `b1_2fa=${challenge}` },
    body: JSON.stringify({ code }),
  });
}

describe("with no OIDC_MFA_* setting the provider's claims count for nothing", () => {
  let portal: Portal;
  beforeAll(async () => {
    portal = await startPortal({
      "00u-bia": who("bia@b1.example.com"),
      "00u-intruso": who("dono@b1.example.com"),
      "00u-dono": who("dono@b1.example.com"),
      "00u-outro": who("outra@b1.example.com"),
    });
  });
  afterAll(() => stopPortal(portal));

  it("an amr of mfa or otp and any acr do not skip the code of an account made by corporate sign-in", async () => {
    const { userId } = await ssoMadeWithTotp(portal, "00u-bia");
    const bia = portal.provider.identities.get("00u-bia")!;
    bia.amr = ["pwd", "mfa", "otp"];
    bia.acr = "urn:teste:mfa";
    expectCodeAsked(await signInThroughProvider(portal.server.url, "00u-bia"));
    expect(
      (await auditRows(portal.server.db, "sso_second_factor_required")).some(
        (row) => row.userId === userId && row.details?.mfa_claim === "not_asserted",
      ),
    ).toBe(true);
  });

  it("the first corporate sign-in of an account with TOTP links nothing before the code; the owner's identity then links with it", async () => {
    const ownerId = await handMade(portal.server, "dono@b1.example.com", ["lider"]);
    const manualKey = await enrol(portal.server, ownerId);

    // Someone who only passed the provider with the owner's e-mail (another `sub`): asked for the code, bound to nothing.
    const intruder = await signInThroughProvider(portal.server.url, "00u-intruso");
    expectCodeAsked(intruder);
    const wrong = await typeCode(portal.server, intruder.roundTrip.portal.get("b1_2fa")!, "000000");
    expect(wrong.status).toBe(401);
    expect(await findUser(portal.server.db, "dono@b1.example.com")).toMatchObject({ oidcIssuer: null, oidcSubject: null });

    // The owner's real identity is not refused as a conflict: asked for the code, and linked once it is right.
    const owner = await signInThroughProvider(portal.server.url, "00u-dono", "/faq");
    expectCodeAsked(owner);
    expect(await findUser(portal.server.db, "dono@b1.example.com")).toMatchObject({ oidcSubject: null });
    const right = await typeCode(portal.server, owner.roundTrip.portal.get("b1_2fa")!, totp(manualKey, 1));
    expect(right.status).toBe(200);
    expect(await right.json()).toMatchObject({ next: "/faq" });
    expect(await findUser(portal.server.db, "dono@b1.example.com")).toMatchObject({
      oidcIssuer: portal.provider.issuer,
      oidcSubject: "00u-dono",
    });
    expect(
      (await auditRows(portal.server.db, "sso_identity_linked")).map((row) => [
        row.userId,
        row.details?.subject,
        row.details?.secondFactor,
      ]),
    ).toEqual([[ownerId, "00u-dono", "totp"]]);

    // The account is linked now: the intruder's `sub` is a conflict, and its session goes nowhere.
    const again = await signInThroughProvider(portal.server.url, "00u-intruso");
    expect(again.token).toBeUndefined();
    expect(again.location).not.toBe("/dois-fatores");
    expect((await auditRows(portal.server.db, "sso_identity_conflict")).map((row) => row.userId)).toEqual([ownerId]);
  });

  it("a challenge whose identity got linked elsewhere meanwhile still opens the account, without the link", async () => {
    const ownerId = await handMade(portal.server, "outra@b1.example.com", ["visualizador"]);
    const manualKey = await enrol(portal.server, ownerId);
    const first = await signInThroughProvider(portal.server.url, "00u-outro");
    expectCodeAsked(first);
    // Another account took this issuer + sub meanwhile (an administrator's link, say).
    const otherId = await handMade(portal.server, "terceira@b1.example.com", ["visualizador"]);
    await portal.server.db.update(users).set({ oidcIssuer: portal.provider.issuer, oidcSubject: "00u-outro" }).where(eq(users.id, otherId));
    const right = await typeCode(portal.server, first.roundTrip.portal.get("b1_2fa")!, totp(manualKey, 1));
    expect(right.status).toBe(200);
    expect(await findUser(portal.server.db, "outra@b1.example.com")).toMatchObject({ oidcIssuer: null, oidcSubject: null });
    expect((await auditRows(portal.server.db, "sso_identity_conflict")).some((row) => row.userId === ownerId)).toBe(true);
  });
});

describe("OIDC_MFA_AMR / OIDC_MFA_ACR set: honoured only for accounts made by corporate sign-in without admin or security", () => {
  let portal: Portal;
  beforeAll(async () => {
    portal = await startPortal(
      {
        "00u-gil": who("gil@b1.example.com", { amr: ["pwd", "mfa"] }),
        "00u-lia": who("lia@b1.example.com", { acr: "urn:teste:mfa" }),
        "00u-rui": who("rui@b1.example.com", { amr: ["pwd", "mfa"] }),
        "00u-ti": who("ti@b1.example.com", { amr: ["pwd", "mfa"] }),
        "00u-emergencia": who("emergencia@b1.example.com", { amr: ["pwd", "mfa"] }),
        "00u-sec": who("sec@b1.example.com", { amr: ["pwd", "mfa"] }),
      },
      { OIDC_MFA_AMR: "mfa,otp", OIDC_MFA_ACR: "urn:teste:mfa" },
    );
  });
  afterAll(() => stopPortal(portal));

  it("an account made by corporate sign-in with no privileged role goes straight in on the configured amr or acr, not on pwd alone", async () => {
    const gil = await ssoMadeWithTotp(portal, "00u-gil");
    const signedIn = await signInThroughProvider(portal.server.url, "00u-gil");
    expect(await sessionOwner(portal.server.db, signedIn.token)).toBe(gil.userId);
    portal.provider.identities.get("00u-gil")!.amr = ["pwd"];
    expectCodeAsked(await signInThroughProvider(portal.server.url, "00u-gil"));

    const lia = await ssoMadeWithTotp(portal, "00u-lia");
    expect(await sessionOwner(portal.server.db, (await signInThroughProvider(portal.server.url, "00u-lia")).token)).toBe(lia.userId);
  });

  it("never for an account holding admin (given by hand or mapped from the provider's groups) or security", async () => {
    const rui = await ssoMadeWithTotp(portal, "00u-rui");
    await giveRole(portal.server, rui.userId, "admin");
    expectCodeAsked(await signInThroughProvider(portal.server.url, "00u-rui"));

    await ssoMadeWithTotp(portal, "00u-ti");
    portal.provider.identities.get("00u-ti")!.groups = ["grupo-ti"];
    expectCodeAsked(await signInThroughProvider(portal.server.url, "00u-ti"));

    const sec = await ssoMadeWithTotp(portal, "00u-sec");
    await giveRole(portal.server, sec.userId, "security");
    expectCodeAsked(await signInThroughProvider(portal.server.url, "00u-sec"));
  });

  it("never for an account made outside corporate sign-in: the command line's emergency admin, or a plain one made by hand", async () => {
    const adminId = await handMade(portal.server, "emergencia@b1.example.com", ["admin"]);
    await enrol(portal.server, adminId);
    expectCodeAsked(await signInThroughProvider(portal.server.url, "00u-emergencia"));
    expect(await findUser(portal.server.db, "emergencia@b1.example.com")).toMatchObject({ oidcSubject: null });
  });
});
