import { spawnSync } from "node:child_process";
import path from "node:path";
import { desc, eq, gt } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { auditLogs } from "../../../db/schema/index";
import { incrementAuditCount, writeAuditLog } from "../../../src/lib/server/audit/audit";
import { sealChainHead } from "../../../src/lib/server/audit/verify";
import { startBuiltServer, type RunningServer } from "../../support/server";
import { createTestUser, type TestUser } from "../../support/users";

// The server and this process (a second writer on the same database) seal with the same key.
const KEY = "3c".repeat(32);
process.env.AUDIT_CHAIN_KEY = KEY;

let server: RunningServer;
let admin: TestUser;

const chain = async () =>
  (await fetch(server.url + "/api/audit-logs/chain", { headers: { cookie: `b1_session=${admin.token}` } })).json() as Promise<
    Record<string, unknown>
  >;

const wrongPassword = (email: string) =>
  fetch(server.url + "/api/auth/sign-in", {
    method: "POST",
    headers: { "content-type": "application/json", origin: server.url },
    body: JSON.stringify({ email, password: "Errada@123" }),
  });

beforeAll(async () => {
  server = await startBuiltServer({ AUDIT_CHAIN_KEY: KEY });
  admin = await createTestUser(server.db, ["admin"]);
});
afterAll(() => server?.stop());

it("stays intact and sealed under concurrent appends from the server and another process, then names the newest rows deleted", async () => {
  const victim = await createTestUser(server.db, ["lider"]);
  const blocked = (await writeAuditLog(server.db, { actionType: "user_login_attempt", result: "blocked", details: { count: 1 } }))!;
  // Wrong passwords until the server refuses (blocked rows whose count it bumps), while this process appends and bumps too.
  await Promise.all([
    ...Array.from({ length: 40 }, () => wrongPassword(victim.email)),
    ...Array.from({ length: 20 }, (_, i) =>
      i % 2 ? writeAuditLog(server.db, { actionType: "user_logout", result: "success" }) : incrementAuditCount(server.db, blocked),
    ),
  ]);
  const [bumped] = await server.db.select({ details: auditLogs.actionDetails }).from(auditLogs).where(eq(auditLogs.id, blocked));
  expect(JSON.parse(bumped!.details!)).toEqual({ count: 11 });
  const intact = await chain();
  expect(intact).toMatchObject({ ok: true, sealed: true });

  const newest = await server.db.select({ id: auditLogs.id }).from(auditLogs).orderBy(desc(auditLogs.id)).limit(3);
  await server.db.delete(auditLogs).where(gt(auditLogs.id, newest[2]!.id));
  const truncated = await chain();
  expect(truncated).toMatchObject({ ok: false, reason: "truncated", sealedLastId: newest[0]!.id, lastId: newest[2]!.id });
});

/** A process on the same database without AUDIT_CHAIN_KEY (an instance not yet configured, a script): `code` runs with `db`. */
function runWithoutKey(code: string) {
  const module = (file: string) => JSON.stringify(path.resolve(file));
  const script = `import { writeAuditLog } from ${module("src/lib/server/audit/audit.ts")};
    import { closeDatabase, getMigratedDb } from ${module("src/lib/server/data/db.ts")};
    const db = await getMigratedDb();
    try { ${code} } finally { await closeDatabase(db); }`;
  const run = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
    env: { ...process.env, ...server.databaseEnv, AUDIT_CHAIN_KEY: "" },
    encoding: "utf8",
    timeout: 60_000,
  });
  expect(run.stderr).toBe("");
  expect(run.status).toBe(0);
}

const lastRowId = async () => (await server.db.select({ id: auditLogs.id }).from(auditLogs).orderBy(desc(auditLogs.id)).limit(1))[0]!.id;

it("rows written without the key do not freeze the sealed head: the next keyed write seals on and verification names them", async () => {
  expect(await sealChainHead(server.db, async () => {})).toMatchObject({ ok: true, sealed: true });
  expect(await chain()).toMatchObject({ ok: true, sealed: true, withoutKey: [] });

  const sealedLast = await lastRowId();
  runWithoutKey(`await writeAuditLog(db, { actionType: "user_logout", result: "success" });
    await writeAuditLog(db, { actionType: "user_login_attempt", result: "blocked", details: { count: 1 } });`);
  const outside = (await server.db.select({ id: auditLogs.id }).from(auditLogs).where(gt(auditLogs.id, sealedLast))).map((row) => row.id);
  expect(outside).toHaveLength(2);
  // Until a keyed writer comes, they are rows after the sealed end.
  expect(await chain()).toMatchObject({ ok: false, reason: "extra_rows", brokenId: outside[0], sealedLastId: sealedLast });

  // The server writes (wrong passwords), then this process: both seal again.
  const user = await createTestUser(server.db, ["visualizador"]);
  expect((await wrongPassword(user.email)).status).toBe(401);
  await writeAuditLog(server.db, { actionType: "user_logout", result: "success" });
  const resumed = await chain();
  expect(resumed).toMatchObject({ ok: true, sealed: true, withoutKey: [{ firstId: outside[0], lastId: outside[1], rows: 2 }] });

  // Sealing really resumed: the newest row deleted is caught again.
  const newest = await lastRowId();
  await server.db.delete(auditLogs).where(eq(auditLogs.id, newest));
  expect(await chain()).toMatchObject({ ok: false, reason: "truncated", sealedLastId: newest });
  expect(await sealChainHead(server.db, async () => {})).toMatchObject({ ok: true });
});
