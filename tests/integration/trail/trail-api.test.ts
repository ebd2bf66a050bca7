import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { trailProgress } from "../../../db/schema/index";
import { startBuiltServer, type RunningServer } from "../../support/server";
import { createTestUser, type TestUser } from "../../support/users";

let server: RunningServer;
let user: TestUser;
const call = (method: string, body?: unknown, who: TestUser | null = user) =>
  fetch(server.url + "/api/trail", {
    method,
    headers: { origin: server.url, "content-type": "application/json", ...(who ? { cookie: `b1_session=${who.token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

beforeAll(async () => {
  server = await startBuiltServer();
  user = await createTestUser(server.db, ["visualizador"]);
});
afterAll(() => server?.stop());

describe("/api/trail", () => {
  const state = { completed: ["ideacao"], answers: { ideacao: { "0": "Resposta" } }, projectName: "Checkout", updatedAt: 1000 };

  it("refuses anonymous reads and writes", async () => {
    expect((await call("GET", undefined, null)).status).toBe(401);
    expect((await call("PUT", state, null)).status).toBe(401);
  });

  it("saves the trail on the account and returns it to another session of the same user", async () => {
    expect(await (await call("GET")).json()).toEqual({ trail: null, owner: user.id });
    expect((await call("PUT", state)).status).toBe(200);
    const other = {
      ...user,
      token: (await (await import("../../../src/lib/server/sessions/session")).createSession(server.db, user.id)).token,
    };
    expect(await (await call("GET", undefined, other)).json()).toEqual({ trail: state, owner: user.id });
  });

  it("refuses a save sent by a page that was opened for another account", async () => {
    const before = JSON.stringify(await server.db.select().from(trailProgress));
    const response = await call("PUT", { ...state, projectName: "De outra pessoa", owner: "outra-conta" });
    expect(response.status).toBe(409);
    expect(((await response.json()) as { error: string }).error).toMatch(/outra conta/);
    expect(JSON.stringify(await server.db.select().from(trailProgress))).toBe(before);
  });

  it("rejects unknown phases, bad indexes and oversized answers without changing anything", async () => {
    const before = JSON.stringify(await server.db.select().from(trailProgress));
    for (const bad of [
      { ...state, completed: ["fase-falsa"] },
      { ...state, answers: { ideacao: { "7": "x" } } },
      { ...state, answers: { ideacao: { "0": "x".repeat(5001) } } },
      { ...state, projectName: 42 },
    ]) {
      const response = await call("PUT", bad);
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: string }).error).toMatch(/[a-zà-ú]/i);
    }
    expect(JSON.stringify(await server.db.select().from(trailProgress))).toBe(before);
  });
});
