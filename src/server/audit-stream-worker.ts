/**
 * Worker-thread entry (bundled to dist/gate/audit-stream-worker.mjs): runs the audit stream's
 * delivery loops (deliverer.ts) on connections of its own, so the thread that serves pages never
 * reads a batch, builds its JSON, signs it, sends it or waits for SQLite's write lock to move a
 * cursor or renew a lease (better-sqlite3 waits synchronously: on the serving thread, each wait
 * behind another process's append delayed every page meanwhile). The guarantees are the
 * deliverer's, unchanged: the rows are the outbox, the cursor and the lease are in the database.
 */
import "./harden.ts";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parentPort, workerData } from "node:worker_threads";
import { startAuditStream } from "../lib/server/audit/stream/deliverer.ts";
import type { AuditStreamJob, AuditStreamWorkerMessage } from "../lib/server/audit/stream/off-thread.ts";
import { closeDatabase, connectDatabase, openReadOnlyDatabase } from "../lib/server/data/db.ts";

/**
 * Delivery is background work: on Linux, where the nice value belongs to each thread, this thread
 * lowers its own priority by DELIVERY_NICE, so when both cores are busy the thread that answers pages
 * runs first (bench: `npm run bench -- --audit-stream`). Elsewhere, or if refused, it runs at the process's.
 */
const DELIVERY_NICE = 10;
function lowerOwnPriority(): void {
  try {
    const threadId = Number(path.basename(fs.readlinkSync("/proc/thread-self")));
    if (Number.isInteger(threadId) && threadId > 0) os.setPriority(threadId, Math.min(19, os.getPriority(threadId) + DELIVERY_NICE));
  } catch {
    // Not Linux (no /proc/thread-self) or not allowed: the process's priority.
  }
}
lowerOwnPriority();

const job = workerData as AuditStreamJob;
const port = parentPort!;
const post = (message: AuditStreamWorkerMessage) => port.postMessage(message);

// A structured clone turns the CA's Buffer into a Uint8Array.
const settings = {
  ...job.settings,
  syslog: job.settings.syslog && { ...job.settings.syslog, ca: job.settings.syslog.ca && Buffer.from(job.settings.syslog.ca) },
};
// One connection per destination at most: the loops run one statement at a time each.
const db = connectDatabase(job.target, job.limits, { poolMax: 2 });
const reader = job.engine === "sqlite" ? openReadOnlyDatabase(job.databasePath) : db;
const logger = {
  warn(object: unknown, message?: string) {
    const { err, destination } = (object ?? {}) as { err?: unknown; destination?: string };
    post({ type: "warn", message: message ?? "", destination: destination ?? null, error: err === undefined ? null : String(err) });
  },
};

try {
  const stream = await startAuditStream(db, settings, logger, reader);
  port.on("message", (message: { type: "stop" }) => {
    if (message.type !== "stop") return;
    void stream
      .stop()
      .then(() => closeDatabase(db))
      .finally(() => post({ type: "stopped" }));
  });
  post({ type: "started" });
} catch (error) {
  post({ type: "failed", message: String(error) });
}
