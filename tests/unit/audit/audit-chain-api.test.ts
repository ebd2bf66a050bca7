import { afterAll, beforeAll, expect, it } from "vitest";
import { startBuiltServer, type RunningServer } from "../../support/server";
import { createTestUser, type TestUser } from "../../support/users";
import { eq, isNotNull, min } from "drizzle-orm";
import { auditLogs } from "../../../db/schema/index";

let server: RunningServer;
let admin: TestUser;
let security: TestUser;

const chain = (user: TestUser) => fetch(server.url + "/api/audit-logs/chain", { headers: { cookie: `b1_session=${user.token}` } });

beforeAll(async () => {
  server = await startBuiltServer();
  admin = await createTestUser(server.db, ["admin"]);
  security = await createTestUser(server.db, ["security"]);
});
afterAll(() => server?.stop());

it("the audit page's chain state: intact for admins, the broken row after an edit, and admins only", async () => {
  await fetch(server.url + "/admin-panel", { headers: { cookie: `b1_session=${security.token}` }, redirect: "manual" });
  const intact = await (await chain(admin)).json();
  expect(intact).toMatchObject({ ok: true });
  expect(intact.count).toBeGreaterThan(0);
  expect((await chain(security)).status).toBe(403);
  const [first] = (await server.db
    .select({ id: min(auditLogs.id) })
    .from(auditLogs)
    .where(isNotNull(auditLogs.hash))) as [{ id: number }];
  await server.db.update(auditLogs).set({ result: "failure" }).where(eq(auditLogs.id, first.id));
  expect(await (await chain(admin)).json()).toMatchObject({ ok: false, brokenId: first.id });
});
