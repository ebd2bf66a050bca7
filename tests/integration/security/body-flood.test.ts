import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBuiltServer, type RunningServer } from "../../support/server";
import { postChunked, rawRequest, residentBytes } from "../../support/raw-http";

const PUBLIC_POSTS = [
  "/api/auth/sign-in",
  "/api/auth/sign-up",
  "/api/auth/reset-request",
  "/api/auth/resend-link",
  "/api/auth/update-password",
];
const FLOOD_BYTES = 50 * 1024 * 1024;
const MAX_GROWTH_BYTES = 20 * 1024 * 1024;

let server: RunningServer;

beforeAll(async () => {
  server = await startBuiltServer();
  // Warm every endpoint once so lazy module loading does not count as growth.
  for (const path of PUBLIC_POSTS) {
    await fetch(server.url + path, { method: "POST", headers: { origin: server.url, "content-type": "application/json" }, body: "{}" });
  }
});

afterAll(async () => {
  await server?.stop();
});

describe("an anonymous attacker floods the public POST endpoints", () => {
  it.each(PUBLIC_POSTS)("a 50 MB chunked body to %s gets 413 and barely moves the server's memory", async (path) => {
    const before = residentBytes(server.pid);
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, residentBytes(server.pid))), 10);
    const answer = await postChunked(server.url, path, FLOOD_BYTES, { origin: server.url }).finally(() => clearInterval(sampler));
    peak = Math.max(peak, residentBytes(server.pid));
    expect(answer.status).toBe(413);
    expect(peak - before).toBeLessThan(MAX_GROWTH_BYTES);
    expect(JSON.parse(answer.body)).toEqual({ error: "Requisição muito grande" });
    expect(answer.headers.connection).toBe("close");
    expect(answer.sent).toBeLessThan(FLOOD_BYTES);
  });

  it("a Content-Length over the limit is refused before any body byte is read", async () => {
    const reply = await rawRequest(
      server.url,
      `POST /api/auth/sign-in HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: ${server.url}\r\nContent-Type: application/json\r\nContent-Length: ${FLOOD_BYTES}\r\n\r\n`,
    );
    expect(reply).toMatch(/^HTTP\/1\.1 413 /);
    expect(reply).toMatch(/connection: close/i);
    expect(reply).toContain("Requisição muito grande");
  });
});
