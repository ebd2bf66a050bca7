import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { incrementAuditCount, writeAuditLog } from "../../../src/lib/server/audit/audit";
import { pruneAuditLogs } from "../../../src/lib/server/audit/retention";
import { eq, gt } from "drizzle-orm";
import { auditChainHead, auditLogs } from "../../../db/schema/index";
import { closeDatabase, connectDatabase, type Db } from "../../../src/lib/server/data/db";
import { maskIpAddress } from "../../../src/lib/server/platform/ip-mask";
import { onPostgres } from "../../support/pg";
import { createTestUser, openOwnTestDatabase } from "../../support/users";
import { chainHash, GENESIS_HASH } from "../../../src/lib/server/audit/chain";
import { endMyOtherSessions } from "../../../src/lib/server/sessions/my-sessions";
import { createSession } from "../../../src/lib/server/sessions/session";
import { scriptArgs } from "../../support/scripts";

const DAY = 24 * 60 * 60 * 1000;
let dir: string;
let file: string;
let target: string;
let db: Db;

/** `npm run audit:verify` against the test database. */
function auditVerify(args: string[] = []) {
  const run = spawnSync(process.execPath, scriptArgs("scripts/audit-verify.ts", args), {
    env: { ...process.env, DATABASE_PATH: file, ...(target === file ? {} : { DATABASE_URL: target }) },
    encoding: "utf8",
    timeout: 30_000,
  });
  return { status: run.status, output: run.stdout + run.stderr };
}

async function writeRows(count: number, start = 0): Promise<number[]> {
  const ids: number[] = [];
  for (let index = 0; index < count; index++) {
    const id = await writeAuditLog(db, {
      userId: `u${start + index}`,
      actionType: "user_login_success",
      result: "success",
      details: { email: `p${start + index}@b1.example.com` },
      ipAddress: "203.0.113.9",
      userAgent: "Teste",
    });
    ids.push(id!);
  }
  return ids;
}

/** A rate-limited attempt as the throttle records it: a `blocked` row whose count repeats add to. */
async function writeBlockedRow(): Promise<number> {
  const id = await writeAuditLog(db, {
    actionType: "user_login_attempt",
    result: "blocked",
    details: { email: "alvo@b1.example.com", count: 1 },
    ipAddress: "203.0.113.50",
  });
  return id!;
}

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "b1-chain-"));
  file = path.join(dir, "db.sqlite");
  ({ db, target } = await openOwnTestDatabase(file));
});
afterEach(async () => {
  await closeDatabase(db);
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("npm run audit:verify", () => {
  it("passes on a fresh log with the count", async () => {
    await writeRows(5);
    const result = auditVerify();
    expect(result.output).toContain("OK: cadeia de auditoria íntegra, 5 registros verificados");
    expect(result.status).toBe(0);
  });

  it("names the exact row a direct database edit changed", async () => {
    const ids = await writeRows(6);
    await db.update(auditLogs).set({ actionDetails: '{"email":"outra@b1.example.com"}' }).where(eq(auditLogs.id, ids[3]!));
    const result = auditVerify();
    expect(result.status).toBe(1);
    expect(result.output).toContain(`quebrada no registro #${ids[3]}`);
  });

  it("names the row after one deleted from the middle", async () => {
    const ids = await writeRows(5);
    await db.delete(auditLogs).where(eq(auditLogs.id, ids[2]!));
    const result = auditVerify();
    expect(result.status).toBe(1);
    expect(result.output).toContain(`quebrada no registro #${ids[3]}`);
  });

  it("stays intact while repeated rate-limited attempts add to a row's count", async () => {
    const id = await writeBlockedRow();
    for (let i = 0; i < 3; i++) expect(await incrementAuditCount(db, id)).toBe(true);
    await writeRows(2, 1);
    expect(auditVerify().status).toBe(0);
  });

  it.each([0, -1])("reports a row forged with id %i, which the log viewer lists first", async (forgedId) => {
    await writeRows(3);
    const forged = {
      id: forgedId,
      createdAt: Date.now() - DAY,
      userId: null,
      actionType: "user_login_success",
      result: "success" as const,
      actionDetails: '{"email":"quem@b1.example.com"}',
      ipAddress: "203.0.113.9",
      userAgent: "Teste",
    };
    await db.insert(auditLogs).values({ ...forged, hash: chainHash(GENESIS_HASH, forged) });
    const result = auditVerify();
    expect(result.status).toBe(1);
    expect(result.output).toContain(`#${forgedId}`);
  });

  it("reports a plain DELETE of the newest rows", async () => {
    const ids = await writeRows(6);
    await db.delete(auditLogs).where(gt(auditLogs.id, ids[3]!));
    const result = auditVerify();
    expect(result.status).toBe(1);
    expect(result.output).toContain(`#${ids[5]}`);
  });

  it("reports a changed count of ended sessions (a session row's count never changes after insert)", async () => {
    const user = await createTestUser(db, []);
    await createSession(db, user.id);
    await createSession(db, user.id);
    const current = user.token.split(".")[0]!;
    expect(await endMyOtherSessions(db, { userId: user.id }, current)).toBe(2);
    await writeRows(2);
    const [row] = await db.select().from(auditLogs).where(eq(auditLogs.actionType, "session_ended"));
    expect(JSON.parse(row!.actionDetails!)).toMatchObject({ count: 2 });
    const details = { ...JSON.parse(row!.actionDetails!), count: 0 };
    await db
      .update(auditLogs)
      .set({ actionDetails: JSON.stringify(details) })
      .where(eq(auditLogs.id, row!.id));
    const result = auditVerify();
    expect(result.status).toBe(1);
    expect(result.output).toContain(`#${row!.id}`);
  });

  it("reports a blocked row's count changed outside the portal (the counter the throttle bumps)", async () => {
    const id = await writeBlockedRow();
    for (let i = 0; i < 4; i++) await incrementAuditCount(db, id);
    await writeRows(2);
    const [row] = await db.select().from(auditLogs).where(eq(auditLogs.id, id));
    expect(JSON.parse(row!.actionDetails!)).toMatchObject({ count: 5 });
    const details = { ...JSON.parse(row!.actionDetails!), count: 1 };
    await db
      .update(auditLogs)
      .set({ actionDetails: JSON.stringify(details) })
      .where(eq(auditLogs.id, id));
    const result = auditVerify();
    expect(result.status).toBe(1);
    expect(result.output).toContain("contagem");
  });

  it("still verifies after retention pruning, from the checkpoint it leaves", async () => {
    await writeRows(4);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const cutoff = Date.now();
    await writeRows(3, 4);
    expect(await pruneAuditLogs(db, 1, cutoff + DAY)).toBe(4);
    const result = auditVerify();
    expect(result.output).toContain("3 registros verificados");
    expect(result.status).toBe(0);
  });

  it("prunes only a prefix of the chain when a newer row sits between two old ones (clocks of two instances)", async () => {
    const now = Date.now();
    const append = async (at: number) => {
      vi.useFakeTimers({ toFake: ["Date"] });
      vi.setSystemTime(at);
      try {
        await writeAuditLog(db, { actionType: "user_logout", result: "success" });
      } finally {
        vi.useRealTimers();
      }
    };
    await append(now - 10 * DAY);
    await append(now);
    await append(now - 10 * DAY);
    expect(await pruneAuditLogs(db, 1, now)).toBe(1);
    const result = auditVerify();
    expect(result.output).toContain("2 registros verificados");
    expect(result.status).toBe(0);
  });

  it("keeps one chain when two connections append (at the same time on PostgreSQL: two instances)", async () => {
    const other = connectDatabase(target);
    const append = (i: number) => writeAuditLog(i % 2 ? db : other, { actionType: "user_logout", result: "success" });
    // One process holds one SQLite connection (getDb): two in one process can only take turns.
    if (onPostgres) await Promise.all(Array.from({ length: 20 }, (_, i) => append(i)));
    else for (let i = 0; i < 20; i++) await append(i);
    await closeDatabase(other);
    expect(auditVerify().output).toContain("20 registros verificados");
  });
});

describe("logs written before this version", () => {
  /** Rewrites the rows as an older version left them: `hashOf` gives each row's stored hash from the previous one's; no head. */
  async function asWrittenBefore(hashOf: (previous: string, row: typeof auditLogs.$inferSelect) => string | null) {
    let previous = GENESIS_HASH;
    for (const row of await db.select().from(auditLogs).orderBy(auditLogs.id)) {
      const hash = hashOf(previous, row);
      await db.update(auditLogs).set({ hash }).where(eq(auditLogs.id, row.id));
      previous = hash ?? GENESIS_HASH;
    }
    await db.delete(auditChainHead);
  }

  it("rows hashed by version 1 (count outside every hash) still verify once the head is back", async () => {
    await writeRows(3);
    await asWrittenBefore((previous, row) => chainHash(previous, row, 1));
    await writeRows(1, 3);
    const result = auditVerify();
    expect(result.output).toContain("OK: cadeia de auditoria íntegra, 4 registros verificados");
    expect(result.status).toBe(0);
  });

  it(
    "rows from before the chain (no hash) are sealed by the head: one edited or slipped into their ids is reported",
    { timeout: 60_000 },
    async () => {
      const ids = await writeRows(3);
      await asWrittenBefore(() => null);
      await writeRows(2, 3);
      // Summing them is an operator's step, not a request's.
      const unsealed = auditVerify();
      expect(unsealed.status).toBe(1);
      expect(unsealed.output).toContain("npm run audit:verify -- --seal");
      expect(auditVerify(["--seal"]).status).toBe(0);
      const intact = auditVerify();
      expect(intact.output).toContain("2 registros verificados (e 3 anteriores à cadeia, conferidos pelo topo)");
      expect(intact.status).toBe(0);

      const [original] = await db.select().from(auditLogs).where(eq(auditLogs.id, ids[1]!));
      await db.delete(auditLogs).where(eq(auditLogs.id, ids[1]!));
      await db.insert(auditLogs).values({ ...original!, actionDetails: '{"email":"outra@b1.example.com"}' });
      const forged = auditVerify();
      expect(forged.status).toBe(1);
      expect(forged.output).toContain("anterior à cadeia");
    },
  );
});

describe("AUDIT_IP_MASK", () => {
  it.each([
    ["203.0.113.77", "203.0.113.0"],
    ["::ffff:203.0.113.77", "::ffff:203.0.113.0"],
    ["2001:db8:abcd:12:3456:789a:bcde:f012", "2001:db8:abcd::"],
    ["2001:db8::1", "2001:db8:0::"],
    ["::1", "0:0:0::"],
  ])("%s is stored as %s", (address, masked) => {
    expect(maskIpAddress(address)).toBe(masked);
  });
});
