import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBuiltServer, type RunningServer } from "../../support/server";
import { createTestUser, type TestUser } from "../../support/users";

let server: RunningServer;
let admin: TestUser;

beforeAll(async () => {
  server = await startBuiltServer();
  admin = await createTestUser(server.db, ["admin"]);
});
afterAll(() => server?.stop());

function get(path: string, init: RequestInit = {}, who: TestUser | null = admin) {
  const headers = new Headers(init.headers);
  if (who) headers.set("cookie", `b1_session=${who.token}`);
  return fetch(server.url + path, { redirect: "manual", ...init, headers });
}

function directives(csp: string): Map<string, string[]> {
  return new Map(
    csp
      .split(";")
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name, ...values]) => [name!, values]),
  );
}

/** What a framing, sniffing or popup-based attacker meets on every response the portal sends. */
function expectHardened(response: Response, what: string) {
  const headers = response.headers;
  const csp = headers.get("content-security-policy");
  expect(csp, what).toBeTruthy();
  const policy = directives(csp!);
  expect(policy.get("frame-ancestors"), what).toEqual(["'none'"]);
  const scripts = policy.get("script-src") ?? policy.get("default-src") ?? [];
  expect(scripts, what).not.toContain("'unsafe-inline'");
  expect(scripts, what).not.toContain("'unsafe-eval'");
  expect(headers.get("x-content-type-options"), what).toBe("nosniff");
  expect(headers.get("x-frame-options"), what).toBe("DENY");
  expect(headers.get("referrer-policy"), what).toBe("same-origin");
  expect(headers.get("cross-origin-opener-policy"), what).toBe("same-origin");
  expect(headers.get("permissions-policy"), what).toContain("camera=()");
  expect(headers.get("strict-transport-security"), what).toBeNull();
  return policy;
}

describe("an attacker frames, sniffs or injects into the portal's responses", () => {
  it("a page carries a CSP whose script hashes cover every inline script it ships", async () => {
    const response = await get("/templates");
    expect(response.status).toBe(200);
    const policy = expectHardened(response, "página");
    const html = await response.text();
    const inline = [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]!).filter(Boolean);
    expect(inline.length).toBeGreaterThan(0);
    for (const code of inline) {
      const hash = `'sha256-${createHash("sha256").update(code).digest("base64")}'`;
      expect(policy.get("script-src"), code.slice(0, 60)).toContain(hash);
    }
  });

  it("an anonymous redirect, a gate JSON answer and the 404 page are hardened too", async () => {
    const redirect = await get("/templates", {}, null);
    expect(redirect.status).toBe(302);
    expectHardened(redirect, "redirecionamento");
    const denied = await get("/api/admin/users", {}, null);
    expect(denied.status).toBe(401);
    expectHardened(denied, "401 do gate");
    const missing = await get("/nao-existe");
    expect(missing.status).toBe(404);
    expectHardened(missing, "404");
  });

  it("answers made by the adapter (JSON and the CSV export) carry the same headers", async () => {
    const me = await get("/api/admin/me");
    expect(me.status).toBe(200);
    expectHardened(me, "API do adaptador");
    const bad = await get(
      "/api/auth/sign-in",
      { method: "POST", body: "{", headers: { origin: server.url, "content-type": "application/json" } },
      null,
    );
    expect(bad.status).toBe(400);
    expectHardened(bad, "400 do adaptador");
    const csv = await get("/api/audit-logs/export.csv");
    expect(csv.status).toBe(200);
    expectHardened(csv, "CSV");
  });

  it("a public asset is hardened", async () => {
    const html = await (await get("/templates")).text();
    const asset = /\/_astro\/[^"']+\.(?:css|js)/.exec(html)?.[0];
    expect(asset).toBeTruthy();
    const response = await get(asset!, {}, null);
    expect(response.status).toBe(200);
    expectHardened(response, "ativo");
  });
});

describe("behind https", () => {
  let secure: RunningServer;
  beforeAll(async () => {
    secure = await startBuiltServer({ PUBLIC_URL: "https://hub.b1.example" });
  });
  afterAll(() => secure?.stop());

  it("every response asks the browser to stay on https (HSTS)", async () => {
    for (const path of ["/auth", "/templates", "/api/trail"]) {
      const response = await fetch(secure.url + path, { redirect: "manual" });
      expect(response.headers.get("strict-transport-security"), path).toBe("max-age=31536000; includeSubDomains");
    }
  });
});
