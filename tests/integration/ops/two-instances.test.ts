/**
 * Two gates on one PostgreSQL database, as behind a load balancer: a session, a role change and a
 * rate limit made through one instance hold on the other at once (PostgreSQL pass only: on SQLite
 * the portal is one process by design).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshDatabaseUrl, onPostgres } from "../../support/pg";
import { startBuiltServer, type RunningServer } from "../../support/server";
import { createTestUser, type TestUser } from "../../support/users";

describe.skipIf(!onPostgres)("two instances on one PostgreSQL", () => {
  let a: RunningServer;
  let b: RunningServer;
  let admin: TestUser;
  const statuses: number[] = [];

  /** Both instances share the database named in their data folders' `database-url`. */
  async function startPair() {
    const url = (await freshDatabaseUrl())!;
    const folders = [0, 1].map(() => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "b1-pair-"));
      fs.writeFileSync(path.join(dir, "database-url"), url);
      return dir;
    });
    // Clients are told apart by X-Forwarded-For, as behind the balancer.
    return Promise.all(folders.map((dataDir) => startBuiltServer({ TRUST_PROXY: "true" }, { dataDir })));
  }

  async function call(
    server: RunningServer,
    method: string,
    urlPath: string,
    options: { token?: string; body?: unknown; ip?: string } = {},
  ) {
    const headers: Record<string, string> = { origin: server.url, "x-forwarded-for": options.ip ?? "192.0.2.10" };
    if (options.token) headers.cookie = `b1_session=${options.token}`;
    if (options.body !== undefined) headers["content-type"] = "application/json";
    const response = await fetch(server.url + urlPath, {
      method,
      headers,
      redirect: "manual",
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
    statuses.push(response.status);
    return response;
  }

  beforeAll(async () => {
    [a, b] = (await startPair()) as [RunningServer, RunningServer];
    admin = await createTestUser(a.db, ["admin"], "admin-par");
  });
  afterAll(async () => {
    await a?.stop();
    await b?.stop();
  });

  it("a session opened on A is valid on B", async () => {
    const person = await createTestUser(a.db, ["visualizador"], "sessao-par");
    const signIn = await call(a, "POST", "/api/auth/sign-in", { body: { email: person.email, password: person.password } });
    expect(signIn.status).toBe(200);
    const token = /b1_session=([^;]+)/.exec(signIn.headers.get("set-cookie") ?? "")?.[1];
    expect(token).toBeTruthy();
    expect((await call(b, "GET", "/faq", { token })).status).toBe(200);
    expect((await call(b, "GET", "/api/trail", { token })).status).toBe(200);
  });

  it("a role an admin removes on A is refused on B's very next request", async () => {
    const leader = await createTestUser(a.db, ["visualizador", "lider"], "lider-par");
    // B has the session cached with both roles.
    expect((await call(b, "GET", "/comite-ia", { token: leader.token })).status).toBe(200);
    expect((await call(b, "GET", "/comite-ia", { token: leader.token })).status).toBe(200);
    const removed = await call(a, "PUT", `/api/admin/users/${leader.id}`, {
      token: admin.token,
      body: { fullName: leader.fullName, roles: ["visualizador"] },
    });
    expect(removed.status).toBe(200);
    const next = await call(b, "GET", "/comite-ia", { token: leader.token });
    expect(next.status).toBe(302);
    expect(next.headers.get("location")).toBe("/acesso-negado?pagina=%2Fcomite-ia");
  });

  it("a session ended on A is refused on B", async () => {
    const person = await createTestUser(a.db, ["visualizador"], "fim-par");
    expect((await call(b, "GET", "/api/trail", { token: person.token })).status).toBe(200);
    expect((await call(a, "POST", "/api/auth/sign-out", { token: person.token })).status).toBeLessThan(400);
    expect((await call(b, "GET", "/api/trail", { token: person.token })).status).toBe(401);
  });

  it("a password lockout reached through A holds on B", async () => {
    const victim = await createTestUser(a.db, ["visualizador"], "alvo-par");
    const ip = "198.51.100.77";
    for (let i = 0; i < 8; i++) {
      const server = i % 2 ? b : a;
      expect(
        (await call(server, "POST", "/api/auth/sign-in", { ip, body: { email: victim.email, password: `Errada@${i}x` } })).status,
      ).toBe(401);
    }
    // The ninth guess from that client is refused by either instance, right password or not.
    expect((await call(b, "POST", "/api/auth/sign-in", { ip, body: { email: victim.email, password: victim.password } })).status).toBe(429);
    expect((await call(a, "POST", "/api/auth/sign-in", { ip, body: { email: victim.email, password: "Errada@9x" } })).status).toBe(429);
  });

  it("answered every request of this file without a 5xx", () => {
    expect(statuses.length).toBeGreaterThan(10);
    expect(statuses.filter((status) => status >= 500)).toEqual([]);
  });
});
