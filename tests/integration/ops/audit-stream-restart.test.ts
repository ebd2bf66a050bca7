/**
 * The delivery thread that dies is started again and resumes from the cursor (issue 45,
 * off-thread.ts): the path a crash of the thread takes (an out-of-memory isolate, a native fault), not
 * walked by the other tests. The thread is ended from outside (Worker.terminate: no lease given up, as in a
 * crash); the next one waits for the lease to run out, then delivers what was written meanwhile,
 * nothing lost, in chain order. Both engines.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { asc } from "drizzle-orm";
import { afterAll, describe, expect, it, vi } from "vitest";
import { auditLogs } from "../../../db/schema/index";
import { freePort } from "../../../scripts/pg-cluster.mjs";
import { writeAuditLog } from "../../../src/lib/server/audit/audit";
import type { AuditStream } from "../../../src/lib/server/audit/stream/deliverer";
import { startAuditStreamOffThread } from "../../../src/lib/server/audit/stream/off-thread";
import { readAuditStreamSettings } from "../../../src/lib/server/config/audit-stream";
import { closeDatabase, engineOfDb, type Db } from "../../../src/lib/server/data/db";
import { firstArrivals, startAuditReceiver, type AuditReceiver } from "../../support/audit-receiver";
import { openOwnTestDatabase } from "../../support/users";

// Every delivery thread off-thread.ts starts, so the test can end one as a crash would.
const threads = vi.hoisted(() => [] as import("node:worker_threads").Worker[]);
vi.mock("node:worker_threads", async (importOriginal) => {
  const actual = await importOriginal<typeof import("node:worker_threads")>();
  class TrackedWorker extends actual.Worker {
    constructor(...args: ConstructorParameters<typeof actual.Worker>) {
      super(...args);
      threads.push(this);
    }
  }
  return { ...actual, default: { ...actual, Worker: TrackedWorker }, Worker: TrackedWorker };
});

const SECRET = "whsec_" + Buffer.from("segredo-de-teste-do-webhook-b1-restart-01").toString("base64");
const LEASE_MS = 2000;

describe("audit streaming when its thread dies", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "b1-stream-restart-"));
  let db: Db;
  let receiver: AuditReceiver;
  let stream: AuditStream | undefined;
  afterAll(async () => {
    await stream?.stop();
    await receiver?.close();
    if (db) await closeDatabase(db);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("is started again after a second and delivers from the cursor: every row, first arrivals in chain order", async () => {
    const sqlitePath = path.join(dir, "db.sqlite");
    const opened = await openOwnTestDatabase(sqlitePath);
    db = opened.db;
    receiver = await startAuditReceiver(SECRET, await freePort());
    const settings = readAuditStreamSettings({
      AUDIT_WEBHOOK_URL: receiver.url,
      AUDIT_WEBHOOK_SECRET: SECRET,
      AUDIT_WEBHOOK_TIMEOUT_MS: "1000",
      AUDIT_STREAM_POLL_MS: "50",
      AUDIT_STREAM_LEASE_MS: String(LEASE_MS),
      AUDIT_STREAM_BACKOFF_MS: "40",
    });
    const warnings: string[] = [];
    stream = await startAuditStreamOffThread(
      db,
      { engine: engineOfDb(db), target: opened.target, databasePath: sqlitePath, limits: { connectMs: 5000, statementMs: 5000 }, settings },
      { warn: (_details, message) => warnings.push(message ?? "") },
    );
    const ids = async () => (await db.select({ id: auditLogs.id }).from(auditLogs).orderBy(asc(auditLogs.id))).map((row) => row.id);
    const write = async (count: number) => {
      for (let index = 0; index < count; index++) await writeAuditLog(db, { actionType: "page_access_granted", result: "success" });
    };
    const delivered = async () => {
      const wanted = await ids();
      await expect.poll(() => firstArrivals(receiver.accepted()), { timeout: 15_000, interval: 50 }).toEqual(wanted);
    };

    await write(5);
    await delivered();
    expect(threads).toHaveLength(1);

    await threads[0]!.terminate();
    await write(5);
    await delivered();
    expect(threads).toHaveLength(2);
    expect(warnings).toContain("envio da auditoria: a thread de envio parou; recomeçando do cursor");
  }, 30_000);
});
