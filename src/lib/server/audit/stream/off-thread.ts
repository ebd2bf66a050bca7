/**
 * The audit stream's delivery loops on a worker thread (src/server/audit-stream-worker.ts) with its
 * own database connections, so the event loop that serves pages runs no delivery work: no batch
 * read, no JSON, no signature, no POST, and no synchronous wait for SQLite's write lock (held by
 * whichever process appends audit rows) to renew a lease or move a cursor. The guarantees stay the
 * deliverer's: the state lives in the database, so pause, resume and resend from the admin view act
 * on the worker's next step, and a worker that dies is started again (it resumes from the cursor).
 * This thread keeps reading the destinations' state (admin tab, /readyz, the lag metric).
 */
import fs from "node:fs";
import path from "node:path";
import { Worker } from "node:worker_threads";
import type { AuditStreamSettings } from "../../config/audit-stream.ts";
import type { Engine } from "../../../../../db/schema/index.ts";
import type { Db, WaitLimits } from "../../data/db.ts";
import { cachedStates, configuredDestinations, startAuditStream, type AuditStream } from "./deliverer.ts";
import { distDir } from "../../../settings.ts";

export interface AuditStreamJob {
  engine: Engine;
  /** What the worker connects to (a SQLite path or a postgres:// URL). */
  target: string;
  /** SQLite: the file its read-only batch reader opens. */
  databasePath: string;
  limits: WaitLimits;
  settings: AuditStreamSettings;
}

export type AuditStreamWorkerMessage =
  | { type: "started" }
  | { type: "stopped" }
  | { type: "failed"; message: string }
  | { type: "warn"; message: string; destination: string | null; error: string | null };

interface Logger {
  warn(object: unknown, message?: string): void;
}

/** A worker that died is started again after this long. */
export const RESTART_AFTER_MS = 1000;

/** The bundled worker next to the gate, or its source when running unbuilt. */
function workerFile(): string {
  const built = path.join(distDir(), "gate", "audit-stream-worker.mjs");
  return fs.existsSync(built) ? built : path.resolve("src/server/audit-stream-worker.ts");
}

/** Starts the delivery loops on a worker thread; nothing (no thread) when no destination is configured. */
export async function startAuditStreamOffThread(db: Db, job: AuditStreamJob, logger: Logger): Promise<AuditStream> {
  const destinations = configuredDestinations(job.settings);
  // Without any destination in the environment nor the key that lets the panel set one: no thread.
  if (destinations.length === 0 && !job.settings.destinationKey) return startAuditStream(db, job.settings, logger);

  let stopping = false;
  let current: Worker;
  /** Whether `current` has ended (a start that failed): stop() then has no thread to wait for. */
  let currentExited = false;
  let restartTimer: NodeJS.Timeout | undefined;

  /** Starts the thread again after RESTART_AFTER_MS, and again after each failed start. */
  function restartLater(): void {
    restartTimer = setTimeout(function restart() {
      restartTimer = undefined;
      if (stopping) return;
      spawn().catch((error: unknown) => {
        logger.warn({ err: error }, "envio da auditoria: a thread de envio não recomeçou");
        if (!stopping) restartTimer = setTimeout(restart, RESTART_AFTER_MS);
      });
    }, RESTART_AFTER_MS);
  }

  /** Spawns the worker; resolves once its loops run, rejects when it could not start them. */
  function spawn(): Promise<void> {
    const worker = new Worker(workerFile(), { workerData: job, name: "audit-stream" });
    current = worker;
    currentExited = false;
    worker.once("exit", () => worker === current && (currentExited = true));
    return new Promise((resolve, reject) => {
      let started = false;
      worker.on("message", (message: AuditStreamWorkerMessage) => {
        if (message.type === "started") {
          started = true;
          resolve();
        } else if (message.type === "failed") {
          reject(new Error(message.message));
          void worker.terminate();
        } else if (message.type === "warn") {
          logger.warn({ err: message.error, destination: message.destination }, message.message);
        }
      });
      worker.on("error", (error) => logger.warn({ err: error }, "envio da auditoria: a thread de envio falhou"));
      worker.on("exit", (code) => {
        if (!started) return reject(new Error(`a thread de envio da auditoria saiu com código ${code} antes de começar`));
        if (stopping || worker !== current) return;
        // Nothing is lost: the cursor did not move past what the receiver took.
        logger.warn({ code }, "envio da auditoria: a thread de envio parou; recomeçando do cursor");
        restartLater();
      });
    });
  }

  // The delivery thread lowers its own priority (audit-stream-worker.ts), and a thread's priority passes to
  // the threads it starts: libuv's pool, shared by the whole process (file reads, Argon2), is started here
  // first, by this thread, so it never inherits the delivery thread's.
  await fs.promises.access(workerFile());
  // A thread that cannot start now (its database refuses) is tried again: the portal starts without it.
  await spawn().catch((error: unknown) => {
    logger.warn({ err: error }, "envio da auditoria: a thread de envio não começou; nova tentativa em 1 s");
    restartLater();
  });
  return {
    destinations,
    states: cachedStates(db, job.settings),
    async stop() {
      stopping = true;
      clearTimeout(restartTimer);
      const worker = current;
      if (currentExited) return;
      // The loops end and give their leases up; then the thread goes.
      await new Promise<void>((resolve) => {
        worker.on("message", (message: AuditStreamWorkerMessage) => message.type === "stopped" && resolve());
        worker.once("exit", () => resolve());
        worker.postMessage({ type: "stop" });
      });
      await worker.terminate();
    },
  };
}
