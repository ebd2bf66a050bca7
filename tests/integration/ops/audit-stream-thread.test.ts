/**
 * Audit streaming never stalls the pages (issue 45): the delivery loops run on a worker thread with
 * connections of their own, so while another process holds the database's write lock (on SQLite,
 * what the stream's lease renewal and cursor update wait for, synchronously in better-sqlite3) the
 * gate keeps answering at once; once the lock goes, delivery goes on from the cursor, nothing lost.
 * PostgreSQL: the stream's state row is locked instead (the wait is asynchronous there either way).
 */
import fs from "node:fs";
import Database from "better-sqlite3";
import { asc } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditDestinations, auditLogs } from "../../../db/schema/index";
import { freePort } from "../../../scripts/pg-cluster.mjs";
import { writeAuditLog } from "../../../src/lib/server/audit/audit";
import { closeDatabase, connectDatabase, pgPool } from "../../../src/lib/server/data/db";
import { firstArrivals, startAuditReceiver, type AuditReceiver } from "../../support/audit-receiver";
import { onPostgres } from "../../support/pg";
import { deliveredToHead, lastAuditId } from "../../support/audit-stream";
import { startBuiltServer, type RunningServer } from "../../support/server";

const SECRET = "whsec_" + Buffer.from("segredo-de-teste-do-webhook-b1-thread-01").toString("base64");
/** How long the lock is held: below SQLite's busy timeout (5 s), so a waiting statement gets it in the end. */
const HOLD_MS = 3500;
/** A probe slower than this waited for the lock (unlocked, one takes milliseconds). */
const STALLED_MS = 1500;

let receiver: AuditReceiver;
let server: RunningServer;

beforeAll(async () => {
  receiver = await startAuditReceiver(SECRET, await freePort());
  server = await startBuiltServer({
    AUDIT_WEBHOOK_URL: receiver.url,
    AUDIT_WEBHOOK_SECRET: SECRET,
    AUDIT_WEBHOOK_TIMEOUT_MS: "2000",
    AUDIT_STREAM_POLL_MS: "50",
    AUDIT_STREAM_LEASE_MS: "10000",
    AUDIT_STREAM_BACKOFF_MS: "40",
  });
});
let stopped = false;
afterAll(async () => {
  if (stopped) fs.rmSync(server.dataDir, { recursive: true, force: true });
  else await server?.stop();
  await receiver?.close();
});

const lastId = () => lastAuditId(server);

const caughtUp = () => deliveredToHead(receiver, server);

/** Holds the lock the stream's next step waits for, until the returned function is called. */
async function holdLock(): Promise<() => Promise<void>> {
  if (onPostgres) {
    const client = await pgPool(server.db)!.connect();
    await client.query("begin");
    await client.query("select * from audit_destinations for update");
    return async () => {
      await client.query("commit");
      client.release();
    };
  }
  const sqlite = new Database(server.databaseEnv.DATABASE_PATH!);
  sqlite.exec("BEGIN IMMEDIATE");
  return async () => {
    sqlite.exec("COMMIT");
    sqlite.close();
  };
}

describe("audit streaming off the serving thread", () => {
  it("answers pages at once while the stream waits for the database's lock, then delivers everything in order", async () => {
    for (let index = 0; index < 5; index++) await writeAuditLog(server.db, { actionType: "page_access_granted", result: "success" });
    await caughtUp();

    const release = await holdLock();
    const heldAt = Date.now();
    // Released on a timer of its own, whatever the probes are doing.
    const released = new Promise((resolve) => setTimeout(resolve, HOLD_MS)).then(release);
    const probes: number[] = [];
    // The stream polls every 50 ms: well within the first probe's delay it is waiting for the lock.
    await new Promise((resolve) => setTimeout(resolve, 300));
    while (Date.now() - heldAt < HOLD_MS - STALLED_MS) {
      const started = Date.now();
      const response = await fetch(`${server.url}/healthz`);
      await response.arrayBuffer();
      expect(response.status).toBe(200);
      probes.push(Date.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await released;
    expect(probes.length).toBeGreaterThan(0);
    expect(Math.max(...probes)).toBeLessThan(STALLED_MS);

    // The lock is gone: delivery goes on from the cursor, every row once in chain order.
    for (let index = 0; index < 5; index++) await writeAuditLog(server.db, { actionType: "page_access_granted", result: "success" });
    await caughtUp();
    const ids = (await server.db.select({ id: auditLogs.id }).from(auditLogs).orderBy(asc(auditLogs.id))).map((row) => row.id);
    expect(firstArrivals(receiver.accepted())).toEqual(ids);
  });

  it("the delivery thread runs 10 nice levels below the rest of the process, whose other threads keep its priority (Linux)", async () => {
    const threads = fs.readdirSync(`/proc/${server.pid}/task`).map((task) => {
      const stat = fs.readFileSync(`/proc/${server.pid}/task/${task}/stat`, "utf8");
      const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      return { name, nice: Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[16]) };
    });
    const main = threads.find((thread) => thread.name === "MainThread" || thread.name === "node")!;
    expect(threads.filter((thread) => thread.name === "audit-stream")).toEqual([
      { name: "audit-stream", nice: Math.min(19, main.nice + 10) },
    ]);
    // libuv's pool (file reads, Argon2) and V8's helpers serve pages too: none inherited the delivery thread's priority.
    const others = threads.filter((thread) => thread.name !== "audit-stream");
    expect(others.length).toBeGreaterThan(1);
    expect(others.filter((thread) => thread.nice !== main.nice)).toEqual([]);
  });

  it("SIGTERM: the delivery thread gives its lease up before the database closes, and the process exits 0", async () => {
    const [before] = await server.db.select().from(auditDestinations);
    expect(before!.leaseOwner).toMatch(`:${server.pid}:`);
    const env = server.databaseEnv;
    const head = await lastId();
    stopped = true;
    await server.stop({ keepData: true });
    expect(await server.exited).toBe(0);
    const db = connectDatabase(env.DATABASE_URL ?? env.DATABASE_PATH!);
    try {
      const [after] = await db.select().from(auditDestinations);
      expect(after!.leaseOwner).toBeNull();
      // The batch in flight, if any, finished and moved the cursor: everything written was delivered.
      expect(after!.deliveredId).toBe(head);
    } finally {
      await closeDatabase(db);
    }
  });
});
