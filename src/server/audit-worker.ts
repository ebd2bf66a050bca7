/**
 * Worker-thread entry (bundled to dist/gate/audit-worker.mjs): runs audit reads on its own
 * read-only connection so a long query never stalls the event loop that serves pages.
 * `pages` answers one keyset page per message; `export` streams the CSV one chunk per pull.
 */
import "./harden.ts";
import fs from "node:fs";
import os from "node:os";
import { parentPort, workerData } from "node:worker_threads";
import { CSV_BOM, auditCsvHeader, auditCsvLine } from "../lib/server/audit/export-csv.ts";
import { queryAuditLogs } from "../lib/server/audit/query.ts";
import type { AuditReaderJob, AuditWorkerReply, ExportPull } from "../lib/server/audit/reader.ts";
import { CHUNK_SLOT_BYTES } from "../lib/server/audit/chunk-ring.ts";
import { openReadOnlyDatabase } from "../lib/server/data/db.ts";

const job = workerData as AuditReaderJob;
const EXPORT_NICENESS = 19;
const db = openReadOnlyDatabase(job.databasePath);
const port = parentPort!;

function reply(message: AuditWorkerReply) {
  port.postMessage(message);
}

if (job.kind === "pages") {
  port.on("message", async (request: { id: number; filter: Parameters<typeof queryAuditLogs>[1] }) => {
    try {
      reply({ id: request.id, ok: true, page: await queryAuditLogs(db, request.filter, job.timeZone) });
    } catch (error) {
      reply({ id: request.id, ok: false, message: String(error) });
    }
  });
} else {
  yieldToServing();
  let cursor: string | undefined;
  let started = false;
  const encoder = new TextEncoder();
  port.on("message", async (pull: ExportPull) => {
    try {
      const page = await queryAuditLogs(db, { ...job.filter, cursor, limit: job.rowsPerChunk }, job.timeZone);
      let chunk = started ? "" : CSV_BOM + auditCsvHeader(job.separator);
      started = true;
      for (const row of page.rows) chunk += auditCsvLine(row, job.timeZone, job.separator);
      cursor = page.nextCursor ?? undefined;
      const done = !cursor;
      // Encoded here, into the serving thread's ring slot when it fits, so that thread never
      // copies, re-encodes or allocates the text.
      if (pull.slot !== null) {
        const target = new Uint8Array(job.slots, pull.slot * CHUNK_SLOT_BYTES, CHUNK_SLOT_BYTES);
        const { read, written } = encoder.encodeInto(chunk, target);
        if (read === chunk.length) return reply({ id: 0, ok: true, slot: pull.slot, length: written, done });
      }
      const bytes = encoder.encode(chunk);
      port.postMessage({ id: 0, ok: true, chunk: bytes, done } satisfies AuditWorkerReply, [bytes.buffer]);
    } catch (error) {
      reply({ id: 0, ok: false, message: String(error) });
    }
  });
}

/**
 * An export is bulk work: on Linux its thread drops to the lowest CPU priority, so on a busy machine
 * the threads that answer pages (and everything else) run first and the export takes the idle time.
 */
function yieldToServing() {
  try {
    const threadId = Number(fs.readlinkSync("/proc/thread-self").split("/").pop());
    os.setPriority(threadId, EXPORT_NICENESS);
  } catch {
    // Not Linux, or no /proc: the export runs at the server's priority.
  }
}
