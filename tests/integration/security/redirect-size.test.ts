import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBuiltServer, type RunningServer } from "../../support/server";

let server: RunningServer;
beforeAll(async () => {
  server = await startBuiltServer();
});
afterAll(() => server?.stop());

describe("the sign-in redirect of an anonymous visitor", () => {
  it("never repeats more than 2 KB of the request target in Location (a long query is dropped, the page kept)", async () => {
    const response = await fetch(`${server.url}/faq?q=${"a".repeat(6000)}`, { redirect: "manual" });
    expect(response.status).toBe(302);
    const location = response.headers.get("location")!;
    expect(location.length).toBeLessThanOrEqual(2048);
    expect(location).toBe("/auth?next=%2Ffaq");
  });

  it("keeps a query of ordinary size", async () => {
    const response = await fetch(`${server.url}/templates?etapa=ideacao`, { redirect: "manual" });
    expect(response.headers.get("location")).toBe(`/auth?next=${encodeURIComponent("/templates?etapa=ideacao")}`);
  });
});
