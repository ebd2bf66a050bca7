import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { auditLogs } from "../../../db/schema/index";
import { startBuiltServer, type RunningServer } from "../../support/server";
import { createTestUser, type TestUser } from "../../support/users";

let server: RunningServer;
let visitor: TestUser;

beforeAll(async () => {
  server = await startBuiltServer();
  visitor = await createTestUser(server.db, ["visualizador"]);
});
afterAll(() => server?.stop());

const deniedRows = async () =>
  await server.db
    .select()
    .from(auditLogs)
    .where(and(eq(auditLogs.userId, visitor.id), eq(auditLogs.actionType, "page_access_denied")));

describe("a signed-in user floods the audit log by hammering pages they may not open", () => {
  it("100 denied requests to /admin-panel and 100 to its API /api/admin/users write one row", async () => {
    const headers = { cookie: `b1_session=${visitor.token}` };
    for (let i = 0; i < 100; i++) {
      const page = await fetch(server.url + "/admin-panel", { headers, redirect: "manual" });
      expect(page.status).toBe(302);
      const api = await fetch(server.url + "/api/admin/users", { headers });
      expect(api.status).toBe(403);
    }
    const rows = await deniedRows();
    expect(rows).toHaveLength(1);
    expect(JSON.parse(rows[0]!.actionDetails!)).toMatchObject({ path: "/admin-panel" });
  });
});
