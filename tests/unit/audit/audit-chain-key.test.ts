import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { desc, eq, gt } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { auditChainCheckpoints, auditChainHead, auditLogs } from "../../../db/schema/index";
import { incrementAuditCount, writeAuditLog } from "../../../src/lib/server/audit/audit";
import { chainHash } from "../../../src/lib/server/audit/chain";
import { pruneAuditLogs } from "../../../src/lib/server/audit/retention";
import { verifyAuditChain } from "../../../src/lib/server/audit/verify";
import { describeChainProblem, type ChainState } from "../../../src/lib/audit/chain-state";
import { closeDatabase, connectDatabase, type Db } from "../../../src/lib/server/data/db";
import { readConfig } from "../../../src/lib/server/config/config";
import { onPostgres } from "../../support/pg";
import { openOwnTestDatabase } from "../../support/users";
import { scriptArgs } from "../../support/scripts";

// This file's appends are sealed with a key, as a deployment with AUDIT_CHAIN_KEY set (read once, on first use).
const KEY = "5f".repeat(32);
const OTHER_KEY = "a0".repeat(32);
process.env.AUDIT_CHAIN_KEY = KEY;

let dir: string;
let file: string;
let target: string;
let db: Db;

/** `npm run audit:verify` against the test database, with the deployment's key unless told otherwise. */
function auditVerify(env: Record<string, string> = {}, args: string[] = []) {
  const run = spawnSync(process.execPath, scriptArgs("scripts/audit-verify.ts", args), {
    env: { ...process.env, AUDIT_CHAIN_KEY: KEY, DATABASE_PATH: file, ...(target === file ? {} : { DATABASE_URL: target }), ...env },
    encoding: "utf8",
    timeout: 30_000,
  });
  return { status: run.status, output: run.stdout + run.stderr };
}

async function writeRows(count: number, on: Db = db): Promise<number[]> {
  const ids: number[] = [];
  for (let index = 0; index < count; index++) {
    ids.push((await writeAuditLog(on, { userId: `u${index}`, actionType: "user_logout", result: "success", details: { index } }))!);
  }
  return ids;
}

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "b1-chain-key-"));
  file = path.join(dir, "db.sqlite");
  ({ db, target } = await openOwnTestDatabase(file));
});
afterEach(async () => {
  await closeDatabase(db);
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("npm run audit:verify with AUDIT_CHAIN_KEY", () => {
  it("passes with the head sealed", async () => {
    await writeRows(4);
    const result = auditVerify();
    expect(result.output).toContain("OK: cadeia de auditoria íntegra, 4 registros verificados");
    expect(result.output).toContain("topo selado");
    expect(result.status).toBe(0);
  });

  it.each([1, 3])("reports the newest %i rows deleted", async (deleted) => {
    const ids = await writeRows(6);
    await db.delete(auditLogs).where(gt(auditLogs.id, ids[5 - deleted]!));
    const result = auditVerify();
    expect(result.status).toBe(1);
    expect(result.output).toContain(`#${ids[5]}`);
    expect(result.output).toContain(`#${ids[5 - deleted]}`);
  });

  it("reports a row appended outside the portal, even with a correctly chained hash", async () => {
    const ids = await writeRows(3);
    const [last] = await db.select().from(auditLogs).orderBy(desc(auditLogs.id)).limit(1);
    const forged = {
      id: ids[2]! + 5,
      createdAt: Date.now(),
      userId: null,
      actionType: "user_login_success",
      result: "success" as const,
      actionDetails: null,
      ipAddress: null,
      userAgent: null,
    };
    await db.insert(auditLogs).values({ ...forged, hash: chainHash(last!.hash!, forged) });
    const result = auditVerify();
    expect(result.status).toBe(1);
    expect(result.output).toContain(`#${forged.id}`);
  });

  it("keeps one sealed chain while two connections append and bump counts at once (two instances on PostgreSQL)", async () => {
    const other = connectDatabase(target);
    const blocked = (await writeAuditLog(db, { actionType: "user_login_attempt", result: "blocked", details: { count: 1 } }))!;
    const work = (i: number) => {
      const on = i % 2 ? db : other;
      return i % 3 ? writeAuditLog(on, { actionType: "user_logout", result: "success" }) : incrementAuditCount(on, blocked);
    };
    // One process holds one SQLite connection (getDb): two in one process can only take turns.
    if (onPostgres) await Promise.all(Array.from({ length: 30 }, (_, i) => work(i)));
    else for (let i = 0; i < 30; i++) await work(i);
    await closeDatabase(other);
    const [row] = await db.select().from(auditLogs).where(eq(auditLogs.id, blocked));
    expect(JSON.parse(row!.actionDetails!)).toEqual({ count: 11 });
    const result = auditVerify();
    expect(result.output).toContain("OK: cadeia de auditoria íntegra, 21 registros verificados");
    expect(result.output).toContain("topo selado");
    expect(result.status).toBe(0);
  });
});

describe("the sealed head", () => {
  it("reports the newest rows deleted even when the head record is rolled back to match (its seal does not)", async () => {
    const ids = await writeRows(5);
    const [kept] = await db.select().from(auditLogs).where(eq(auditLogs.id, ids[2]!));
    await db.delete(auditLogs).where(gt(auditLogs.id, ids[2]!));
    await db.update(auditChainHead).set({ lastId: kept!.id, lastHash: kept!.hash! });
    expect(await verifyAuditChain(db)).toMatchObject({ ok: false, reason: "head_seal" });
    // The portal's next append leaves the evidence as it is.
    await writeRows(1);
    expect(await verifyAuditChain(db)).toMatchObject({ ok: false, reason: "head_seal" });
  });

  it("reports old rows deleted outside retention, even with a checkpoint forged to look like pruning", async () => {
    const ids = await writeRows(5);
    const [last] = await db.select().from(auditLogs).where(eq(auditLogs.id, ids[1]!));
    await db.insert(auditChainCheckpoints).values({ lastPrunedId: last!.id, lastPrunedHash: last!.hash!, createdAt: Date.now() });
    await db.delete(auditLogs).where(eq(auditLogs.id, ids[0]!));
    await db.delete(auditLogs).where(eq(auditLogs.id, ids[1]!));
    expect(await verifyAuditChain(db)).toMatchObject({ ok: false, reason: "pruned" });
  });

  it("does not let retention absorb a row deleted from the middle of what it prunes", async () => {
    const ids = await writeRows(6);
    await db.delete(auditLogs).where(eq(auditLogs.id, ids[1]!));
    expect(await verifyAuditChain(db)).toMatchObject({ ok: false, reason: "hash", brokenId: ids[2] });
    expect(await pruneAuditLogs(db, 1, Date.now() + 2 * 24 * 60 * 60 * 1000, 3)).toBe(5);
    expect(await verifyAuditChain(db)).toMatchObject({ ok: false, reason: "pruned" });
  });

  it("after a key change: reported until an operator re-seals, then verifies with the new key only", { timeout: 60_000 }, async () => {
    await writeRows(3);
    const otherKey = Buffer.from(OTHER_KEY, "hex");
    const other = await verifyAuditChain(db, undefined, otherKey);
    expect(other).toMatchObject({ ok: false, reason: "head_key", keySet: true, sealedWithKey: true });
    expect(describeChainProblem(other as Extract<ChainState, { ok: false }>)).toContain("outra AUDIT_CHAIN_KEY");
    expect(await verifyAuditChain(db, undefined, null)).toMatchObject({ ok: false, reason: "head_key", keySet: false });
    const seal = auditVerify({ AUDIT_CHAIN_KEY: OTHER_KEY }, ["--seal"]);
    expect(seal.output).toContain("topo da cadeia selado");
    expect(seal.status).toBe(0);
    expect(await verifyAuditChain(db, undefined, otherKey)).toMatchObject({ ok: true, count: 3, sealed: true });
    expect(await verifyAuditChain(db)).toMatchObject({ ok: false, reason: "head_key" });
  });

  it(
    "a log without a head (before this version) is reported until re-sealed, which refuses a broken chain",
    { timeout: 60_000 },
    async () => {
      const ids = await writeRows(4);
      await db.delete(auditChainHead);
      expect(await verifyAuditChain(db)).toMatchObject({ ok: false, reason: "head_missing" });
      // With a key, the portal does not seal what it found on its own.
      await writeRows(1);
      expect(await verifyAuditChain(db)).toMatchObject({ ok: false, reason: "head_missing" });
      await db.update(auditLogs).set({ userAgent: "outro" }).where(eq(auditLogs.id, ids[1]!));
      const refused = auditVerify({}, ["--seal"]);
      expect(refused.status).toBe(1);
      expect(refused.output).toContain(`#${ids[1]}`);
      expect(refused.output).toContain("não foi selado");
      await db.update(auditLogs).set({ userAgent: null }).where(eq(auditLogs.id, ids[1]!));
      expect(auditVerify({}, ["--seal"]).status).toBe(0);
      expect(await verifyAuditChain(db)).toMatchObject({ ok: true, count: 5, sealed: true });
    },
  );
});

describe("AUDIT_CHAIN_KEY", () => {
  it("takes 32 bytes as hex or base64, and refuses anything else with a Portuguese message", () => {
    expect(readConfig({ AUDIT_CHAIN_KEY: KEY }).auditChainKey).toEqual(Buffer.from(KEY, "hex"));
    expect(readConfig({ AUDIT_CHAIN_KEY: Buffer.from(KEY, "hex").toString("base64") }).auditChainKey).toEqual(Buffer.from(KEY, "hex"));
    expect(readConfig({}).auditChainKey).toBeNull();
    expect(() => readConfig({ AUDIT_CHAIN_KEY: "curta" })).toThrow("AUDIT_CHAIN_KEY deve ter 32 bytes");
  });
});

describe("rows written without the key after the sealed end", () => {
  /** A row as a process without the key appends it: chained by hash onto the last row, the head left alone. */
  async function appendWithoutKey(
    fields: { actionType: string; result?: "success" | "failure" | "blocked"; details?: unknown },
    hash?: string | null,
  ) {
    const [last] = await db.select().from(auditLogs).orderBy(desc(auditLogs.id)).limit(1);
    const values = {
      createdAt: Date.now(),
      userId: null,
      actionType: fields.actionType,
      result: fields.result ?? "success",
      actionDetails: fields.details === undefined ? null : JSON.stringify(fields.details),
      ipAddress: null,
      userAgent: null,
    };
    const [{ id }] = (await db.insert(auditLogs).values(values).returning({ id: auditLogs.id })) as [{ id: number }];
    await db
      .update(auditLogs)
      .set({ hash: hash === undefined ? chainHash(last!.hash!, { id, ...values }) : hash })
      .where(eq(auditLogs.id, id));
    return id;
  }

  it("are taken in by the next keyed append and named by verification, which passes; the chain stays sealed after them", async () => {
    await writeRows(2);
    const outside = [
      await appendWithoutKey({ actionType: "user_logout" }),
      await appendWithoutKey({ actionType: "user_login_attempt", result: "blocked", details: { count: 1 } }),
    ];
    expect(await verifyAuditChain(db)).toMatchObject({ ok: false, reason: "extra_rows", brokenId: outside[0] });
    // Its count bumped by a keyed writer before it is taken in: the sum takes the count it has then.
    expect(await incrementAuditCount(db, outside[1]!)).toBe(true);
    const after = await writeRows(1);
    const state = await verifyAuditChain(db);
    expect(state).toMatchObject({ ok: true, sealed: true, withoutKey: [{ firstId: outside[0], lastId: outside[1], rows: 2 }] });
    const [named] = await db
      .select()
      .from(auditLogs)
      .where(eq(auditLogs.id, after[0]! - 1));
    expect(named!.actionType).toBe("audit_rows_without_key");
    const result = auditVerify();
    expect(result.status).toBe(0);
    expect(result.output).toContain(
      `ATENÇÃO: 2 registros gravados sem AUDIT_CHAIN_KEY (por um processo sem a chave) e selados depois: #${outside[0]} a #${outside[1]} (2 registros)`,
    );
  });

  it("a forged naming row names nobody: only the real one, which names the forged row itself", async () => {
    const keyed = await writeRows(2);
    const forged = await appendWithoutKey({
      actionType: "audit_rows_without_key",
      result: "failure",
      details: { firstId: keyed[0], lastId: keyed[1], rows: 2, mac: "0".repeat(64) },
    });
    await writeRows(1);
    expect(await verifyAuditChain(db)).toMatchObject({ ok: true, withoutKey: [{ firstId: forged, lastId: forged, rows: 1 }] });
  });

  it.each([
    ["with a hash that does not chain", "0".repeat(64), "hash"],
    ["without a hash", null, "missing_hash"],
  ])("a row %s is not taken in: the evidence stays after later appends", async (_, hash, reason) => {
    await writeRows(2);
    const outside = await appendWithoutKey({ actionType: "user_logout" }, hash);
    await writeRows(2);
    expect(await verifyAuditChain(db)).toMatchObject({ ok: false, reason, brokenId: outside });
  });

  it("a key that is not the head's is refused by npm run user -- add before anything is written", async () => {
    await writeRows(1);
    for (const key of ["", OTHER_KEY]) {
      const run = spawnSync(
        process.execPath,
        scriptArgs("scripts/user.ts", ["add", "--email", "cli@b1.example.com", "--name", "Pessoa CLI", "--password", "Jabuticaba@Azul7"]),
        {
          env: {
            ...process.env,
            AUDIT_CHAIN_KEY: key,
            AUTH_ALLOWED_DOMAINS: "b1.example.com",
            DATABASE_PATH: file,
            ...(target === file ? {} : { DATABASE_URL: target }),
          },
          encoding: "utf8",
          timeout: 30_000,
        },
      );
      expect(run.status).toBe(1);
      expect(run.stderr).toContain("Erro: o log de auditoria deste banco é selado com AUDIT_CHAIN_KEY");
    }
    expect(await verifyAuditChain(db)).toMatchObject({ ok: true, withoutKey: [] });
  });
});
