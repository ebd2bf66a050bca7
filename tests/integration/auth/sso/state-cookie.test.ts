import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLogs } from "../../../../db/schema/index";
import { startTestProvider, TEST_CLIENT, type TestProvider } from "../../../support/oidc-provider";
import { returnToPortal, signInAtProvider } from "../../../support/oidc-browser";
import { startBuiltServer, type RunningServer } from "../../../support/server";

// Published over https: the state cookie can then carry __Host-, which no sibling subdomain can set.
const PUBLIC_URL = "https://hub.b1.example.com";
let provider: TestProvider;
let server: RunningServer;

beforeAll(async () => {
  provider = await startTestProvider(PUBLIC_URL, {
    ana: { email: "ana.host@b1.example.com", email_verified: true, name: "Ana Host", groups: [] },
  });
  server = await startBuiltServer({
    PUBLIC_URL,
    RATE_LIMIT_MULTIPLIER: "100",
    OIDC_ISSUER: provider.issuer,
    OIDC_CLIENT_ID: TEST_CLIENT.id,
    OIDC_CLIENT_SECRET: TEST_CLIENT.secret,
  });
});
afterAll(async () => {
  await server?.stop();
  await provider?.stop();
});

const lastInvalidState = async () => {
  const rows = await server.db.select().from(auditLogs).where(eq(auditLogs.actionType, "sso_invalid_state"));
  return JSON.parse(rows.at(-1)?.actionDetails ?? "null") as unknown;
};

const callback = (url: string, cookie: string) => fetch(url, { headers: { cookie }, redirect: "manual" });

describe("the corporate sign-in's state cookie when PUBLIC_URL is https", () => {
  it("is __Host-b1_oidc_state (Secure, Path=/, no Domain) and completes the sign-in", async () => {
    const start = await fetch(`${server.url}/api/auth/oidc/login`, { redirect: "manual" });
    const line = start.headers.getSetCookie().find((cookie) => cookie.includes("oidc_state"))!;
    expect(line).toMatch(/^__Host-b1_oidc_state=[^;]+; Path=\/;/);
    expect(line).toContain("; Secure");
    expect(line).toContain("; HttpOnly");
    expect(line).not.toMatch(/domain=/i);

    const roundTrip = await signInAtProvider(server.url, "ana", "/faq", PUBLIC_URL);
    expect(roundTrip.portal.get("__Host-b1_oidc_state")).toBeTruthy();
    expect(roundTrip.portal.get("b1_oidc_state")).toBeUndefined();
    const response = await returnToPortal(roundTrip);
    expect(response.headers.get("location")).toBe("/faq");
    const cookies = response.headers.getSetCookie();
    expect(cookies.some((cookie) => cookie.startsWith("__Host-b1_session="))).toBe(true);
    expect(cookies).toContain("__Host-b1_oidc_state=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0; Secure");
  });

  it("a plain b1_oidc_state, which a sibling subdomain can plant, is not read", async () => {
    const roundTrip = await signInAtProvider(server.url, "ana", "/", PUBLIC_URL);
    const response = await callback(roundTrip.callbackUrl, `b1_oidc_state=${roundTrip.portal.get("__Host-b1_oidc_state")}`);
    expect(response.headers.get("location")).toBe("/auth?sso_error=state");
    expect(await lastInvalidState()).toEqual({ error: "state_cookie_missing" });
  });

  it("two state cookies in one request sign nobody in: neither is picked", async () => {
    const roundTrip = await signInAtProvider(server.url, "ana", "/", PUBLIC_URL);
    const own = roundTrip.portal.get("__Host-b1_oidc_state")!;
    for (const cookie of [
      `__Host-b1_oidc_state=${own}; __Host-b1_oidc_state=plantado`,
      `__Host-b1_oidc_state=plantado; __Host-b1_oidc_state=${own}`,
    ]) {
      const response = await callback(roundTrip.callbackUrl, cookie);
      expect(response.headers.get("location")).toBe("/auth?sso_error=state");
      expect(response.headers.getSetCookie().some((line) => line.startsWith("__Host-b1_session="))).toBe(false);
      expect(await lastInvalidState()).toEqual({ error: "state_cookie_conflict" });
    }
  });
});
