import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBuiltServer, type RunningServer } from "../../support/server";
import { rawRequest } from "../../support/raw-http";
import { createTestUser, type TestUser } from "../../support/users";

let server: RunningServer;
let user: TestUser;

beforeAll(async () => {
  server = await startBuiltServer({ REQUEST_TIMEOUT_MS: "2000", BODY_IDLE_TIMEOUT_MS: "1000" });
  user = await createTestUser(server.db, ["visualizador"]);
});
afterAll(() => server?.stop());

const hostOf = () => new URL(server.url).host;

describe("odd methods and Host headers get a clean 4xx, never a 500 or a stack trace", () => {
  it.each(["TRACE", "OPTIONS", "PROPFIND", "LINK"])("%s /api/trail → 405 with Allow", async (method) => {
    const reply = await rawRequest(
      server.url,
      `${method} /api/trail HTTP/1.1\r\nHost: ${hostOf()}\r\nCookie: b1_session=${user.token}\r\nConnection: close\r\n\r\n`,
    );
    expect(reply).toMatch(/^HTTP\/1\.1 405 /);
    expect(reply).toMatch(/\r\nallow: GET, HEAD, POST, PUT, PATCH, DELETE\r\n/i);
    expect(reply).toContain('{"error":"Método não permitido"}');
  });

  it.each(["127.0.0.1:1@evil.example", "evil.example/api/admin/users", "a b", "evil.example#x", "[::1"])("Host %j → 400", async (host) => {
    const reply = await rawRequest(server.url, `GET /api/trail HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
    expect(reply).toMatch(/^HTTP\/1\.1 400 /);
  });

  it("logs no stack trace for any of them", () => {
    expect(server.output()).not.toMatch(/\[500\]|Error:|\n\s+at /);
  });
});

describe("a forged form posts from another site that also lies in its Host header", () => {
  it("Origin equal to the Host but not to PUBLIC_URL is refused", async () => {
    const reply = await rawRequest(
      server.url,
      `POST /api/auth/sign-out HTTP/1.1\r\nHost: evil.example\r\nOrigin: http://evil.example\r\nCookie: b1_session=${user.token}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`,
    );
    expect(reply).toMatch(/^HTTP\/1\.1 403 /);
    expect(reply).toContain("Origem da requisição não permitida");
    // The session survived.
    expect((await fetch(server.url + "/api/trail", { headers: { cookie: `b1_session=${user.token}` } })).status).toBe(200);
  });
});

/** Opens a POST with a declared body and feeds it `step` bytes every `everyMs`; resolves with the reply and when the server closed. */
function slowPost(path: string, everyMs: number | null): Promise<{ reply: string; closedAfterMs: number }> {
  return new Promise((resolve) => {
    const started = Date.now();
    const socket = net.connect(Number(new URL(server.url).port), "127.0.0.1");
    let reply = "";
    let timer: NodeJS.Timeout | undefined;
    socket.setEncoding("utf8");
    socket.on("data", (part: string) => (reply += part));
    socket.on("error", () => {});
    socket.on("close", () => {
      clearInterval(timer);
      resolve({ reply, closedAfterMs: Date.now() - started });
    });
    socket.on("connect", () => {
      socket.write(
        `POST ${path} HTTP/1.1\r\nHost: ${hostOf()}\r\nOrigin: ${server.url}\r\nContent-Type: application/json\r\nContent-Length: 60000\r\n\r\n{"email":"`,
      );
      if (everyMs !== null) timer = setInterval(() => socket.writable && socket.write("a"), everyMs);
    });
    setTimeout(() => socket.destroy(), 15_000).unref();
  });
}

describe("a slowloris client holds a connection open with a body that never ends", () => {
  it("a body that stops sending is cut after the idle timeout", async () => {
    const { reply, closedAfterMs } = await slowPost("/api/auth/sign-in", null);
    expect(closedAfterMs).toBeLessThan(5000);
    expect(reply).toMatch(/^HTTP\/1\.1 408 /);
  });

  it("a body that trickles a byte at a time is cut by the whole-request timeout", async () => {
    const { reply, closedAfterMs } = await slowPost("/api/auth/sign-in", 300);
    expect(closedAfterMs).toBeLessThan(6000);
    expect(reply).toMatch(/^HTTP\/1\.1 408 /);
  });
});
