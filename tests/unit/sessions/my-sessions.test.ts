import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { auditLogs } from "../../../db/schema/index";
import { createSession } from "../../../src/lib/server/sessions/session";
import { startBuiltServer, type RunningServer } from "../../support/server";
import { createTestUser } from "../../support/users";

let server: RunningServer;

function call(path: string, token: string, method = "GET") {
  return fetch(server.url + path, {
    method,
    redirect: "manual",
    headers: {
      cookie: `b1_session=${token}`,
      origin: server.url,
      "user-agent": "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
    },
  });
}

beforeAll(async () => {
  server = await startBuiltServer();
});
afterAll(() => server?.stop());

describe("Minhas sessões", () => {
  it("lists the person's sessions with browser and system, never the session id", async () => {
    const user = await createTestUser(server.db, ["visualizador"]);
    const body = await (await call("/api/conta/sessoes", user.token)).json();
    expect(body.sessions).toHaveLength(1);
    expect(body.sessions[0]).toMatchObject({ current: true });
    expect(JSON.stringify(body)).not.toContain(user.token.split(".")[0]);
  });

  it("a handle from someone else's list ends nothing", async () => {
    const alice = await createTestUser(server.db, ["visualizador"]);
    const bob = await createTestUser(server.db, ["visualizador"]);
    const bobHandle = (await (await call("/api/conta/sessoes", bob.token)).json()).sessions[0].handle;
    expect((await call(`/api/conta/sessoes/${bobHandle}`, alice.token, "DELETE")).status).toBe(404);
    expect((await call("/faq", bob.token)).status).toBe(200);
  });

  it("'all others' ends every other session, keeps this one, and is audited", async () => {
    const user = await createTestUser(server.db, ["visualizador"]);
    const second = (await createSession(server.db, user.id)).token;
    const third = (await createSession(server.db, user.id)).token;
    const response = await call("/api/conta/sessoes", user.token, "DELETE");
    expect(await response.json()).toMatchObject({ ended: 2 });
    expect((await call("/faq", second)).status).toBe(302);
    expect((await call("/faq", third)).status).toBe(302);
    expect((await call("/faq", user.token)).status).toBe(200);
    const rows = await server.db.select().from(auditLogs).where(eq(auditLogs.userId, user.id));
    expect(rows.map((row) => row.actionType)).toContain("session_ended");
  });

  it("'all others' needs a sign-in in the last 10 minutes: an older session gets 403 asking to sign in again and ends nothing", async () => {
    const user = await createTestUser(server.db, ["visualizador"]);
    const old = (await createSession(server.db, user.id, {}, Date.now() - 11 * 60 * 1000)).token;
    const response = await call("/api/conta/sessoes", old, "DELETE");
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ code: "reauthentication_required", error: expect.stringContaining("entre novamente") });
    expect((await call("/faq", user.token)).status).toBe(200);
    expect((await call("/faq", old)).status).toBe(200);
  });

  it("an admin ends every session of a user from the panel's API; others cannot", async () => {
    const admin = await createTestUser(server.db, ["admin"]);
    const lider = await createTestUser(server.db, ["lider"]);
    const target = await createTestUser(server.db, ["visualizador"]);
    expect((await call(`/api/admin/users/${target.id}/sessions`, lider.token, "DELETE")).status).toBe(403);
    expect((await call("/faq", target.token)).status).toBe(200);
    const response = await call(`/api/admin/users/${target.id}/sessions`, admin.token, "DELETE");
    expect(await response.json()).toMatchObject({ ended: 1 });
    expect((await call("/faq", target.token)).status).toBe(302);
    const row = (await server.db.select().from(auditLogs).where(eq(auditLogs.actionType, "admin_sessions_ended"))).at(-1)!;
    expect(row.userId).toBe(admin.id);
    expect(JSON.parse(row.actionDetails!)).toMatchObject({ targetUserId: target.id, count: 1 });
  });
});
