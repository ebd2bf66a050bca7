/**
 * The audit-stream bench's row generator (audit-stream.ts), in a process of its own: writes
 * `--rate` audit rows a second into DATABASE_PATH through the portal's own append (writeAuditLogs:
 * the chain lock, the hashes, the head), in one call per 10 ms tick, until its stdin closes; then
 * prints one JSON line: rows written, seconds, the append's time per call (p50/p99/max) and its CPU.
 *
 * Its own process because better-sqlite3 waits for the write lock synchronously: in the bench's
 * process a wait froze the webhook receiver and the page-load client there too, so their figures
 * (arrival times, page p99) measured the generator, not the gate.
 */
import { writeAuditLogs, type AuditEntry } from "../../src/lib/server/audit/audit.ts";
import { closeDatabase, openDatabase } from "../../src/lib/server/data/db.ts";

const rateArg = process.argv.indexOf("--rate");
const rate = rateArg > 0 ? Number(process.argv[rateArg + 1]) : 1000;
if (!Number.isInteger(rate) || rate < 1 || rate > 100_000) throw new Error("--rate: de 1 a 100000 linhas/s");
const target = process.env.DATABASE_URL || process.env.DATABASE_PATH;
if (!target) throw new Error("DATABASE_PATH ou DATABASE_URL não definido");

/** At most this many rows per append: a tick that fell behind catches up in a few calls, not one huge one. */
const MAX_PER_CALL = 200;
const db = await openDatabase(target);
let stopped = false;
process.stdin.on("end", () => (stopped = true));
process.stdin.on("close", () => (stopped = true));
process.stdin.resume();
// The bench starts its clock (and the page load) on this line: the process's start-up is not part of a phase.
console.log("pronto");

const callMs: number[] = [];
const cpuBefore = process.cpuUsage();
const started = performance.now();
let written = 0;
let entry = 0;
while (!stopped) {
  const due = Math.floor(((performance.now() - started) / 1000) * rate) - written;
  if (due > 0) {
    const batch: AuditEntry[] = Array.from({ length: Math.min(due, MAX_PER_CALL) }, () => ({
      actionType: "page_access_granted",
      result: "success",
      userAgent: "bench",
      ipAddress: "127.0.0.1",
      details: { path: `/bench/${entry++}` },
    }));
    const callStart = performance.now();
    await writeAuditLogs(db, batch);
    callMs.push(performance.now() - callStart);
    written += batch.length;
  }
  await new Promise((resolve) => setTimeout(resolve, 10));
}
const seconds = (performance.now() - started) / 1000;
const cpu = process.cpuUsage(cpuBefore);
await closeDatabase(db);
callMs.sort((a, b) => a - b);
const at = (p: number) => callMs[Math.min(callMs.length - 1, Math.max(0, Math.ceil(p * callMs.length) - 1))] ?? 0;
console.log(
  JSON.stringify({
    written,
    seconds,
    calls: callMs.length,
    callP50Ms: at(0.5),
    callP99Ms: at(0.99),
    callMaxMs: callMs.at(-1) ?? 0,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
  }),
);
