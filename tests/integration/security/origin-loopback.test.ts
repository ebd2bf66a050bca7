import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../../scripts/pg-cluster.mjs";
import { startBuiltServer, type RunningServer } from "../../support/server";
import { createTestUser, type TestUser } from "../../support/users";

const refusal = (address: string) => `Origem da requisição não permitida: abra o portal em ${address} ou ajuste PUBLIC_URL.`;

/** A sign-in posted from a page at `origin`, sent to where the server listens. */
function signIn(server: RunningServer, user: TestUser, origin: string) {
  return fetch(server.url + "/api/auth/sign-in", {
    method: "POST",
    headers: { "content-type": "application/json", origin },
    body: JSON.stringify({ email: user.email, password: user.password }),
  });
}

function printedAddress(server: RunningServer): string {
  return /B1 Method Hub no ar em (\S+)/.exec(server.output())![1]!;
}

describe("a portal started with the default configuration (PUBLIC_URL not set, HOST 127.0.0.1)", () => {
  let server: RunningServer;
  let user: TestUser;
  let port: string;
  beforeAll(async () => {
    server = await startBuiltServer({ PUBLIC_URL: undefined, RATE_LIMIT_MULTIPLIER: "100" });
    user = await createTestUser(server.db, ["visualizador"]);
    port = new URL(server.url).port;
  });
  afterAll(() => server?.stop());

  it("prints the address a browser signs in at, the one e-mail links use", async () => {
    expect(printedAddress(server)).toBe(`http://localhost:${port}`);
    const response = await fetch(`${printedAddress(server)}/api/auth/sign-in`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: printedAddress(server) },
      body: JSON.stringify({ email: user.email, password: user.password }),
    });
    expect(response.status).toBe(200);
  });

  it.each(["localhost", "127.0.0.1"])("signs in from a page opened at http://%s:PORT", async (host) => {
    const response = await signIn(server, user, `http://${host}:${port}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("set-cookie")).toMatch(/^b1_session=/);
  });

  it("refuses [::1] (the server does not listen there), another port and another site, saying which address to open", async () => {
    const otherPort = String(Number(port) === 65535 ? 1024 : Number(port) + 1);
    for (const origin of [
      `http://[::1]:${port}`,
      `http://localhost:${otherPort}`,
      `https://localhost:${port}`,
      "http://evil.example",
      "null",
    ]) {
      const response = await signIn(server, user, origin);
      expect(response.status, origin).toBe(403);
      expect(response.headers.get("set-cookie"), origin).toBeNull();
      expect(await response.json(), origin).toEqual({ error: refusal(`http://localhost:${port}`) });
    }
  });

  it("never echoes the refused origin", async () => {
    const response = await signIn(server, user, "http://<script>alert(1)</script>.example");
    expect(response.status).toBe(403);
    expect(await response.text()).not.toMatch(/script|alert/);
  });
});

describe("a portal with PUBLIC_URL set", () => {
  let server: RunningServer;
  let user: TestUser;
  let port: number;
  beforeAll(async () => {
    port = await freePort();
    server = await startBuiltServer({ PORT: String(port), PUBLIC_URL: `http://localhost:${port}/`, RATE_LIMIT_MULTIPLIER: "100" });
    user = await createTestUser(server.db, ["visualizador"]);
  });
  afterAll(() => server?.stop());

  it("prints PUBLIC_URL's address and accepts exactly its origin", async () => {
    expect(printedAddress(server)).toBe(`http://localhost:${port}`);
    expect((await signIn(server, user, `http://localhost:${port}`)).status).toBe(200);
  });

  it("refuses the other loopback spelling of the same port, naming PUBLIC_URL's address", async () => {
    const response = await signIn(server, user, `http://127.0.0.1:${port}`);
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ error: refusal(`http://localhost:${port}`) });
  });
});

describe("a portal published behind a proxy", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startBuiltServer({ PUBLIC_URL: "https://hub.b1.example" });
  });
  afterAll(() => server?.stop());

  it("prints the public address and where it listens (for the proxy)", () => {
    expect(server.output()).toContain(`B1 Method Hub no ar em https://hub.b1.example (escutando em ${server.url.slice("http://".length)})`);
  });

  it("refuses every loopback origin", async () => {
    const user = await createTestUser(server.db, ["visualizador"]);
    for (const origin of [server.url, `http://localhost:${new URL(server.url).port}`]) {
      const response = await signIn(server, user, origin);
      expect(response.status, origin).toBe(403);
      expect(await response.json()).toEqual({ error: refusal("https://hub.b1.example") });
    }
    expect((await signIn(server, user, "https://hub.b1.example")).status).toBe(200);
  });
});
