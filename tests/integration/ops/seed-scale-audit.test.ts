/**
 * `npm run seed:scale` writes its audit rows as the portal does: chained, with the head moved (and
 * sealed with AUDIT_CHAIN_KEY), so `npm run audit:verify` passes on the scale database — on a
 * fresh log and on one that already had a chain, which keeps working after the seed.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { seedScale } from "../../../scripts/seed-scale";
import { writeAuditLog } from "../../../src/lib/server/audit/audit";
import { verifyAuditChain } from "../../../src/lib/server/audit/verify";
import { describeChainProblem, type ChainState } from "../../../src/lib/audit/chain-state";
import { closeDatabase, type Db } from "../../../src/lib/server/data/db";
import { openOwnTestDatabase } from "../../support/users";

// Sealed with a key, as a deployment with AUDIT_CHAIN_KEY set (read once, on first use).
process.env.AUDIT_CHAIN_KEY = "3c".repeat(32);

const AUDIT_ROWS = 3000;
const opened: { db: Db; dir: string }[] = [];

async function freshDb(): Promise<Db> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "b1-seed-audit-"));
  const { db } = await openOwnTestDatabase(path.join(dir, "db.sqlite"));
  opened.push({ db, dir });
  return db;
}

function described(state: ChainState): string {
  return state.ok ? "ok" : describeChainProblem(state);
}

afterEach(async () => {
  for (const { db, dir } of opened.splice(0)) {
    await closeDatabase(db);
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

describe("the audit rows of seed:scale", () => {
  it("pass audit:verify on a fresh log", async () => {
    const db = await freshDb();
    await seedScale(db, { users: 10, audit: AUDIT_ROWS, sessions: 0 });
    const state = await verifyAuditChain(db);
    expect(described(state)).toBe("ok");
    expect(state).toMatchObject({ ok: true, count: AUDIT_ROWS, unchained: 0, sealed: true });
  });

  it("continue a chain already there, and the portal's next row chains onto them", async () => {
    const db = await freshDb();
    await writeAuditLog(db, { actionType: "user_logout", result: "success", details: { antes: true } });
    await seedScale(db, { users: 10, audit: AUDIT_ROWS, sessions: 5 });
    await writeAuditLog(db, { actionType: "user_logout", result: "success", details: { depois: true } });
    const state = await verifyAuditChain(db);
    expect(described(state)).toBe("ok");
    expect(state).toMatchObject({ ok: true, count: AUDIT_ROWS + 2, unchained: 0 });
  });
});
