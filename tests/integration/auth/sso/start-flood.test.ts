import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, startTestProvider, TEST_CLIENT, type TestProvider } from "../../../support/oidc-provider";
import { returnToPortal, signInAtProvider } from "../../../support/oidc-browser";
import { startBuiltServer, type RunningServer } from "../../../support/server";

// Any web page can make its visitors' browsers request the login start: such a flood from an
// office's address must cost the attacker more than it costs the office, and never stop a sign-in.
let provider: TestProvider;
let server: RunningServer;

beforeAll(async () => {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  provider = await startTestProvider(url, {
    ana: { email: "ana.enxurrada@b1.example.com", email_verified: true, name: "Ana Enxurrada", groups: [] },
  });
  server = await startBuiltServer({
    PORT: String(port),
    PUBLIC_URL: url,
    OIDC_ISSUER: provider.issuer,
    OIDC_CLIENT_ID: TEST_CLIENT.id,
    OIDC_CLIENT_SECRET: TEST_CLIENT.secret,
  });
});
afterAll(async () => {
  await server?.stop();
  await provider?.stop();
});

async function inBatches(count: number, send: () => Promise<Response>): Promise<number[]> {
  const statuses: number[] = [];
  for (let sent = 0; sent < count; sent += 50) {
    const batch = await Promise.all(Array.from({ length: Math.min(50, count - sent) }, send));
    for (const response of batch) {
      statuses.push(response.status);
      await response.body?.cancel();
    }
  }
  return statuses;
}

describe("a flood of corporate sign-in starts and forged callbacks from one address", () => {
  it("1,000 anonymous starts and 100 forged callbacks, then a real sign-in from the same address succeeds", async () => {
    const starts = await inBatches(1000, () => fetch(`${server.url}/api/auth/oidc/login`, { redirect: "manual" }));
    expect(starts.every((status) => status === 302)).toBe(true);
    const forged = await inBatches(100, () =>
      fetch(`${server.url}/api/auth/oidc/callback?code=x&state=forjado`, {
        redirect: "manual",
        headers: { cookie: "b1_oidc_state=forjado" },
      }),
    );
    expect(forged.every((status) => status === 302)).toBe(true);

    const roundTrip = await signInAtProvider(server.url, "ana", "/faq");
    const response = await returnToPortal(roundTrip);
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/faq");
    expect(response.headers.getSetCookie().some((cookie) => cookie.startsWith("b1_session="))).toBe(true);
    // 1,100 requests that each write a row: ~18 s on PostgreSQL on a busy 2-core machine, past vitest's 20 s default.
  }, 90_000);
});
