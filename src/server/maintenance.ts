import { pruneAuditLogs } from "../lib/server/audit/retention.ts";
import type { Db } from "../lib/server/data/db.ts";
import { pruneRateLimits } from "../lib/server/throttle/rate-limit.ts";

/**
 * At start and then every `intervalMs`: prunes audit rows past `retentionDays` (when set) and
 * ended rate-limit windows. One pass at a time; the timer never keeps the process alive.
 */
export function scheduleMaintenance(db: Db, retentionDays: number | null | undefined, intervalMs: number): { stop: () => void } {
  let running = false;
  const run = async () => {
    if (running) return;
    running = true;
    try {
      if (retentionDays) {
        const deleted = await pruneAuditLogs(db, retentionDays);
        if (deleted) console.log(`Auditoria: ${deleted} registros com mais de ${retentionDays} dias removidos`);
      }
      await pruneRateLimits(db);
    } catch (error) {
      console.error("[manutenção] falha ao remover registros antigos", error);
    } finally {
      running = false;
    }
  };
  void run();
  const timer = setInterval(run, intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
