import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEmailToken } from "../../../src/lib/server/auth/email-tokens";
import { MAX_BODY_BYTES } from "../../../src/lib/server/http/http";
import { startBuiltServer, type RunningServer } from "../../support/server";
import { createTestUser, type TestUser } from "../../support/users";

let server: RunningServer;
let user: TestUser;

beforeAll(async () => {
  server = await startBuiltServer({ LOG_LEVEL: "info", LOG_PRETTY: "0" });
  user = await createTestUser(server.db, ["visualizador"]);
});
afterAll(() => server?.stop());

function post(path: string, body: unknown, headers: Record<string, string> = {}) {
  return fetch(server.url + path, {
    method: "POST",
    headers: { origin: server.url, "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
}

/** Every line the server printed, except the two start-up lines meant for people. */
function logLines(): string[] {
  return server
    .output()
    .split("\n")
    .filter((line) => line !== "" && !line.startsWith("B1 Method Hub no ar em ") && !line.startsWith("Banco de dados: "));
}

/** The request line for a response, found by the id the response carried. */
async function lineFor(response: Response): Promise<Record<string, unknown>> {
  const id = response.headers.get("x-request-id");
  expect(id).toMatch(/^[0-9a-f-]{36}$/);
  await expect.poll(() => logLines().some((line) => line.includes(id!))).toBe(true);
  const records = logLines().map((line) => JSON.parse(line) as Record<string, unknown>);
  const matching = records.filter((record) => record.reqId === id && record.msg === "requisição");
  expect(matching).toHaveLength(1);
  return matching[0]!;
}

describe("request log", () => {
  it("writes one JSON line per request with its id, and never a cookie, password or token", async () => {
    const signIn = await post("/api/auth/sign-in", { email: user.email, password: user.password });
    expect(signIn.status).toBe(200);
    const sessionToken = /b1_session=([^;]+)/.exec(signIn.headers.get("set-cookie") ?? "")![1]!;
    expect(await lineFor(signIn)).toMatchObject({ method: "POST", path: "/api/auth/sign-in", status: 200, level: 30 });

    const page = await fetch(server.url + "/faq", { headers: { cookie: `b1_session=${sessionToken}` } });
    expect(page.status).toBe(200);
    const pageLine = await lineFor(page);
    expect(pageLine).toMatchObject({ method: "GET", path: "/faq", status: 200, userId: user.id });
    expect(pageLine.durationMs).toEqual(expect.any(Number));
    expect(pageLine.bytes).toBeGreaterThan(1000);

    const wrongPassword = "Senha@Errada9";
    const failed = await post("/api/auth/sign-in", { email: user.email, password: wrongPassword });
    expect(failed.status).toBe(401);
    expect(await lineFor(failed)).toMatchObject({ path: "/api/auth/sign-in", status: 401 });

    const resetToken = await createEmailToken(server.db, user.id, "password_reset");
    const resetPage = await fetch(`${server.url}/auth?mode=update-password&token=${resetToken}`);
    expect(await lineFor(resetPage)).toMatchObject({ path: "/auth", status: 200 });
    const newPassword = "Senha@Nova123";
    const reset = await post("/api/auth/update-password", { token: resetToken, password: newPassword, confirmPassword: newPassword });
    expect(reset.status).toBe(200);
    expect(await lineFor(reset)).toMatchObject({ path: "/api/auth/update-password", status: 200 });

    const missing = await fetch(server.url + "/nao-existe", { headers: { cookie: `b1_session=${user.token}` } });
    expect(await lineFor(missing)).toMatchObject({ path: "/nao-existe", status: 404 });

    const everything = logLines().join("\n");
    for (const secret of [sessionToken, user.token, user.password, wrongPassword, newPassword, resetToken]) {
      expect(everything).not.toContain(secret);
    }
    for (const line of logLines()) expect(() => JSON.parse(line)).not.toThrow();
  });

  it("sends X-Request-Id with every kind of answer and logs each one under it", async () => {
    // A user of its own: the first test's password reset ended the shared user's sessions.
    const viewer = await createTestUser(server.db, ["visualizador"]);
    const cookie = { cookie: `b1_session=${viewer.token}` };
    const asset = await fetch(server.url + "/favicon.svg");
    const etag = asset.headers.get("etag")!;
    const answers: [string, Response, number][] = [
      ["ativo", asset, 200],
      ["ativo revalidado", await fetch(server.url + "/favicon.svg", { headers: { "if-none-match": etag } }), 304],
      ["página", await fetch(server.url + "/faq", { headers: cookie }), 200],
      ["página com brotli", await fetch(server.url + "/faq", { headers: { ...cookie, "accept-encoding": "br" } }), 200],
      ["404", await fetch(server.url + "/nao-existe", { headers: cookie }), 404],
      ["redirecionamento", await fetch(server.url + "/faq", { redirect: "manual" }), 302],
      ["JSON do gate", await fetch(server.url + "/api/admin/users"), 401],
      ["método na página", await fetch(server.url + "/faq", { method: "POST", headers: { ...cookie, origin: server.url } }), 405],
      ["método na API", await fetch(server.url + "/api/trail", { method: "OPTIONS", headers: cookie }), 405],
      ["API do adaptador", await fetch(server.url + "/api/trail", { headers: cookie }), 200],
      [
        "corpo grande demais",
        await fetch(server.url + "/api/trail", {
          method: "PUT",
          headers: { ...cookie, origin: server.url, "content-type": "application/json" },
          body: "x".repeat(MAX_BODY_BYTES + 1),
        }),
        413,
      ],
      ["sonda de saúde", await fetch(server.url + "/healthz"), 200],
    ];
    for (const [what, response, status] of answers) {
      expect(response.status, what).toBe(status);
      await response.arrayBuffer();
      if (what === "sonda de saúde") {
        // Probes are logged at debug only (this server logs at info), but still carry the id.
        expect(response.headers.get("x-request-id"), what).toMatch(/^[0-9a-f-]{36}$/);
        continue;
      }
      expect(await lineFor(response), what).toMatchObject({ status });
    }
  });

  it("writes a line still waiting in the batch when the server stops on SIGTERM", async () => {
    const stopping = await startBuiltServer({ LOG_LEVEL: "info", LOG_PRETTY: "0" });
    try {
      const response = await fetch(stopping.url + "/auth?mode=update-password&token=segredo-que-nao-pode-aparecer");
      // Stopped as soon as the answer arrives: its line is at most a few ms old, well inside the batch's wait.
      process.kill(stopping.pid, "SIGTERM");
      expect(response.status).toBe(200);
      await response.arrayBuffer();
      expect(await stopping.exited).toBe(0);
      const id = response.headers.get("x-request-id")!;
      const line = stopping
        .output()
        .split("\n")
        .find((text) => text.includes(id));
      expect(line, stopping.output().slice(-2000)).toBeDefined();
      expect(JSON.parse(line!)).toMatchObject({ reqId: id, path: "/auth", status: 200, msg: "requisição" });
      expect(stopping.output()).not.toContain("segredo-que-nao-pode-aparecer");
    } finally {
      await stopping.stop();
    }
  });
});
