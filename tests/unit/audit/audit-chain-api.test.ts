import { afterAll, beforeAll, expect, it } from "vitest";
import { startBuiltServer, type RunningServer } from "../../support/server";
import { createTestUser, type TestUser } from "../../support/users";

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
  const first = (await server.db.$client.prepare("select min(id) as id from audit_logs where hash is not null"))[0] as { id: number };
  server.db.$client.prepare("update audit_logs set result = 'failure' where id = ?").run(first.id);
  expect(await (await chain(admin)).json()).toMatchObject({ ok: false, brokenId: first.id });
});
