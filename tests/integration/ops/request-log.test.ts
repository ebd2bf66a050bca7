import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEmailToken } from "../../../src/lib/server/auth/email-tokens";
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
});
