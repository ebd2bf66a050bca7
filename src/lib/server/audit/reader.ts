import fs from "node:fs";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { CSV_BOM, auditCsvHeader, auditCsvLine, type CsvSeparator } from "./export-csv.ts";
import { ChunkRing, encodeChunk, type ResponseFlow } from "./chunk-ring.ts";
import { queryAuditLogs, type AuditFilter, type AuditRow } from "./query.ts";
import { getDb } from "../data/db.ts";
import { onPostgres } from "../data/dialect.ts";
import { distDir } from "../../settings.ts";

export interface AuditPage {
  rows: AuditRow[];
  nextCursor: string | null;
}

/** What a worker is started for (its workerData). */
export type AuditReaderJob =
  | { kind: "pages"; databasePath: string; timeZone: string }
  | {
      kind: "export";
      databasePath: string;
      timeZone: string;
      filter: AuditFilter;
      separator: CsvSeparator;
      rowsPerChunk: number;
      slots: SharedArrayBuffer;
    };

/** What the export thread is asked for: the next chunk, encoded into this ring slot when it fits (null: its own memory). */
export interface ExportPull {
  slot: number | null;
}

export type AuditWorkerReply =
  | { id: number; ok: true; page: AuditPage }
  | { id: number; ok: true; chunk: Uint8Array; done: boolean }
  | { id: number; ok: true; slot: number; length: number; done: boolean }
  | { id: number; ok: false; message: string };

/** Concurrent CSV exports per process; each holds one worker thread and one connection. */
export const MAX_CONCURRENT_EXPORTS = 2;
const ROWS_PER_CHUNK = 1000;

/** The bundled worker next to the gate, or its source when running unbuilt (tests, dev). */
function workerFile(): string {
  const built = path.join(distDir(), "gate", "audit-worker.mjs");
  return fs.existsSync(built) ? built : path.resolve("src/server/audit-worker.ts");
}

let pagesWorker: { worker: Worker; key: string } | undefined;
const pending = new Map<number, { resolve: (page: AuditPage) => void; reject: (error: Error) => void }>();
let nextRequestId = 1;

function failPending(error: Error) {
  for (const waiter of pending.values()) waiter.reject(error);
  pending.clear();
  pagesWorker = undefined;
}

function pagesWorkerFor(databasePath: string, timeZone: string): Worker {
  const key = `${databasePath}\n${timeZone}`;
  if (pagesWorker?.key === key) return pagesWorker.worker;
  void pagesWorker?.worker.terminate();
  const job: AuditReaderJob = { kind: "pages", databasePath, timeZone };
  const worker = new Worker(workerFile(), { workerData: job });
  worker.unref();
  worker.on("message", (reply: AuditWorkerReply) => {
    const waiter = pending.get(reply.id);
    pending.delete(reply.id);
    if (!waiter) return;
    if (reply.ok && "page" in reply) waiter.resolve(reply.page);
    else waiter.reject(new Error(reply.ok ? "resposta inesperada" : reply.message));
  });
  worker.on("error", failPending);
  worker.on("exit", () => failPending(new Error("leitor de auditoria encerrado")));
  pagesWorker = { worker, key };
  return worker;
}

/**
 * One page of the audit log: on a worker thread with SQLite (its queries are synchronous); on
 * PostgreSQL the query already waits off the event loop, so it runs here on the pool.
 */
export function readAuditPage(filter: AuditFilter, databasePath: string, timeZone: string): Promise<AuditPage> {
  if (onPostgres) return queryAuditLogs(getDb(), filter, timeZone);
  const worker = pagesWorkerFor(databasePath, timeZone);
  const id = nextRequestId++;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    worker.postMessage({ id, filter });
  });
}

let activeExports = 0;

/** Whoever reads the stream without a server socket behind it (tests): no slot is ever reused. */
const UNTRACKED_FLOW: ResponseFlow = { drained: () => Promise.resolve(), flushedBytes: () => null };

/**
 * Every row matching the filter as CSV bytes, produced by a worker one chunk per pull: memory
 * stays bounded by a chunk whatever the row count, and chunks are encoded into a ring of reused
 * slots (chunk-ring.ts). Null when too many exports are running.
 */
export function streamAuditCsv(
  filter: AuditFilter,
  databasePath: string,
  timeZone: string,
  flow: ResponseFlow = UNTRACKED_FLOW,
  separator: CsvSeparator = ",",
): ReadableStream<Uint8Array> | null {
  if (activeExports >= MAX_CONCURRENT_EXPORTS) return null;
  activeExports++;
  const ring = new ChunkRing(flow.flushedBytes);
  if (onPostgres) return streamFromPool(filter, timeZone, flow, ring, separator);
  const job: AuditReaderJob = {
    kind: "export",
    databasePath,
    timeZone,
    filter,
    separator,
    rowsPerChunk: ROWS_PER_CHUNK,
    slots: ring.memory,
  };
  // A small young generation keeps the worker's heap (and the process RSS) near one chunk's size.
  const worker = new Worker(workerFile(), {
    workerData: job,
    resourceLimits: { maxYoungGenerationSizeMb: 8, maxOldGenerationSizeMb: 128 },
  });
  let finished = false;
  // The pull waiting for the thread's reply, if any: a cancel settles it without a chunk.
  let settlePull: (() => void) | undefined;
  const finish = () => {
    if (finished) return;
    finished = true;
    activeExports--;
    void worker.terminate();
    settlePull?.();
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      await flow.drained();
      if (finished) return;
      return new Promise<void>((resolve) => {
        settlePull = resolve;
        const onError = (error: Error) => {
          worker.off("message", onMessage);
          if (finished) return resolve();
          finish();
          controller.error(error);
          resolve();
        };
        const onMessage = (reply: AuditWorkerReply) => {
          worker.off("error", onError);
          // A reply the thread sent before a cancel (the reader left) arrives after it: the stream
          // is closed, so the chunk is dropped. Enqueued, it would throw in this listener, an
          // uncaught exception that ends the server.
          if (finished) return resolve();
          if (!reply.ok || !("done" in reply)) return onError(new Error(reply.ok ? "resposta inesperada" : reply.message));
          if ("slot" in reply) {
            ring.sent(reply.slot, reply.length);
            if (reply.length) controller.enqueue(ring.view(reply.slot, reply.length));
          } else {
            ring.sent(null, reply.chunk.byteLength);
            if (reply.chunk.byteLength) controller.enqueue(reply.chunk);
          }
          if (reply.done) {
            finish();
            controller.close();
          }
          resolve();
        };
        worker.once("message", onMessage);
        worker.once("error", onError);
        worker.postMessage({ slot: ring.claim() } satisfies ExportPull);
      });
    },
    cancel: finish,
  });
}

/** PostgreSQL: the same chunks, read in keyset pages through the pool (each query awaits, nothing blocks). */
function streamFromPool(
  filter: AuditFilter,
  timeZone: string,
  flow: ResponseFlow,
  ring: ChunkRing,
  separator: CsvSeparator,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let cursor: string | undefined;
  let started = false;
  let finished = false;
  const finish = () => {
    if (finished) return;
    finished = true;
    activeExports--;
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      await flow.drained();
      if (finished) return;
      try {
        const page = await queryAuditLogs(getDb(), { ...filter, cursor, limit: ROWS_PER_CHUNK }, timeZone);
        if (finished) return; // cancelled while the query ran
        let chunk = started ? "" : CSV_BOM + auditCsvHeader(separator);
        started = true;
        for (const row of page.rows) chunk += auditCsvLine(row, timeZone, separator);
        cursor = page.nextCursor ?? undefined;
        if (chunk) controller.enqueue(encodeChunk(ring, encoder, chunk));
        if (!cursor) {
          finish();
          controller.close();
        }
      } catch (error) {
        finish();
        controller.error(error);
      }
    },
    cancel: finish,
  });
}
