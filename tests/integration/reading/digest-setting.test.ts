/** 'Notificações por e-mail': the weekly reminder's opt-out over HTTP (built server), audited, CSRF-checked. */
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLogs, users } from "../../../db/schema/index";
import { startBuiltServer, type RunningServer } from "../../support/server";
import { createTestUser, type TestUser } from "../../support/users";

let server: RunningServer;
let user: TestUser;

function call(method: "GET" | "PUT", body?: unknown, headers: Record<string, string> = {}) {
  return fetch(server.url + "/api/conta/notificacoes", {
    method,
    headers: { cookie: `b1_session=${user.token}`, origin: server.url, "content-type": "application/json", ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}
const optedOut = async () => (await server.db.select({ v: users.readingDigestOptOut }).from(users).where(eq(users.id, user.id)))[0]!.v;

beforeAll(async () => {
  server = await startBuiltServer();
  user = await createTestUser(server.db, ["visualizador"], "notificacoes");
});
afterAll(async () => {
  await server?.stop();
});

describe("weekly reminder opt-out", () => {
  it("is on by default, turns off and on again, with one audit row per change", async () => {
    expect(await (await call("GET")).json()).toEqual({ lembreteSemanal: true });
    expect((await call("PUT", { lembreteSemanal: false })).status).toBe(200);
    expect(await optedOut()).toBe(true);
    expect(await (await call("GET")).json()).toEqual({ lembreteSemanal: false });
    // The same choice again writes nothing.
    expect((await call("PUT", { lembreteSemanal: false })).status).toBe(200);
    expect((await call("PUT", { lembreteSemanal: true })).status).toBe(200);
    expect(await optedOut()).toBe(false);
    const audit = await server.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.userId, user.id), eq(auditLogs.actionType, "reading_digest_opt_out")));
    expect(audit.map((row) => JSON.parse(row.actionDetails!))).toEqual([{ lembreteSemanal: "desativado" }, { lembreteSemanal: "ativado" }]);
  });

  it("refuses bad input in Portuguese, a foreign origin and anonymous calls, changing nothing", async () => {
    for (const body of [{}, { lembreteSemanal: "nao" }, { lembreteSemanal: false, extra: 1 }]) {
      const response = await call("PUT", body);
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: string }).error).toMatch(/[a-zà-ú]{3}/i);
    }
    expect((await call("PUT", { lembreteSemanal: false }, { origin: "http://mal.example" })).status).toBe(403);
    const anonymous = await fetch(server.url + "/api/conta/notificacoes", {
      method: "PUT",
      headers: { origin: server.url, "content-type": "application/json" },
      body: JSON.stringify({ lembreteSemanal: false }),
    });
    expect(anonymous.status).toBe(401);
    expect(await optedOut()).toBe(false);
  });
});
