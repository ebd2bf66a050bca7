import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { incrementAuditCount, writeAuditLog } from "../../../src/lib/server/audit";
import { pruneAuditLogs } from "../../../src/lib/server/audit-retention";
import type { Db } from "../../../src/lib/server/db";
import { maskIpAddress } from "../../../src/lib/server/ip-mask";
import { openTestDatabase } from "../../support/users";

const DAY = 24 * 60 * 60 * 1000;
let dir: string;
let file: string;
let db: Db;

/** `npm run audit:verify` against the test database. */
function auditVerify() {
  const run = spawnSync(process.execPath, ["--import", "tsx", "scripts/audit-verify.ts"], {
    env: { ...process.env, DATABASE_PATH: file },
    encoding: "utf8",
    timeout: 30_000,
  });
  return { status: run.status, output: run.stdout + run.stderr };
}

function writeRows(count: number, start = 0): number[] {
  return Array.from({ length: count }, async (_, index) =>
    await writeAuditLog(db, {
      userId: `u${start + index}`,
      actionType: "user_login_success",
      result: "success",
      details: { email: `p${start + index}@b1.example.com` },
      ipAddress: "203.0.113.9",
      userAgent: "Teste",
    })!,
  );
}

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "b1-chain-"));
  file = path.join(dir, "db.sqlite");
  db = openTestDatabase(file);
});
afterEach(() => {
  db.$client.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("npm run audit:verify", () => {
  it("passes on a fresh log with the count", () => {
    writeRows(5);
    const result = auditVerify();
    expect(result.output).toContain("OK: cadeia de auditoria íntegra, 5 registros verificados");
    expect(result.status).toBe(0);
  });

  it("names the exact row a direct SQLite edit changed", () => {
    const ids = writeRows(6);
    db.$client.prepare("update audit_logs set action_details = ? where id = ?").run('{"email":"outra@b1.example.com"}', ids[3]);
    const result = auditVerify();
    expect(result.status).toBe(1);
    expect(result.output).toContain(`quebrada no registro #${ids[3]}`);
  });

  it("names the row after one deleted from the middle", () => {
    const ids = writeRows(5);
    db.$client.prepare("delete from audit_logs where id = ?").run(ids[2]);
    const result = auditVerify();
    expect(result.status).toBe(1);
    expect(result.output).toContain(`quebrada no registro #${ids[3]}`);
  });

  it("stays intact while repeated rate-limited attempts add to a row's count", async () => {
    const [id] = writeRows(1);
    for (let i = 0; i < 3; i++) expect(await incrementAuditCount(db, id!)).toBe(true);
    writeRows(2, 1);
    expect(auditVerify().status).toBe(0);
  });

  it("still verifies after retention pruning, from the checkpoint it leaves", async () => {
    writeRows(4);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const cutoff = Date.now();
    writeRows(3, 4);
    expect(await pruneAuditLogs(db, 1, cutoff + DAY)).toBe(4);
    const result = auditVerify();
    expect(result.output).toContain("3 registros verificados");
    expect(result.status).toBe(0);
  });

  it("keeps one chain when two connections append in turn", async () => {
    const other = openTestDatabase(file);
    for (let i = 0; i < 5; i++) {
      await writeAuditLog(db, { actionType: "user_logout", result: "success" });
      await writeAuditLog(other, { actionType: "user_logout", result: "success" });
    }
    other.$client.close();
    expect(auditVerify().output).toContain("10 registros verificados");
  });
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
