import { pruneAuditLogs } from "../lib/server/audit/retention.ts";
import {
  PENDING_ACCOUNT_MAX_AGE_DAYS,
  PENDING_PURGE_INTERVAL_MS,
  purgeExpiredPendingAccounts,
} from "../lib/server/auth/pending-accounts.ts";
import type { Db } from "../lib/server/data/db.ts";
import { pruneRateLimits } from "../lib/server/throttle/rate-limit.ts";

interface Repeating {
  /** Settles when the first pass has run. */
  first: Promise<void>;
  stop: () => void;
}

/** Runs `task` now and then every `intervalMs`, one pass at a time; a failed pass is logged; the timer never keeps the process alive. */
function repeat(intervalMs: number, failure: string, task: () => Promise<void>): Repeating {
  let running = false;
  const run = async () => {
    if (running) return;
    running = true;
    try {
      await task();
    } catch (error) {
      console.error(failure, error);
    } finally {
      running = false;
    }
  };
  const first = run();
  const timer = setInterval(run, intervalMs);
  timer.unref();
  return { first, stop: () => clearInterval(timer) };
}

/**
 * The server's periodic clean-up: audit rows past `retentionDays` (when set) and ended rate-limit
 * windows every `intervalMs`; sign-ups never confirmed within PENDING_ACCOUNT_MAX_AGE_DAYS every hour.
 * Resolves once the first purge of pending sign-ups has run, so a starting server serves none.
 */
export async function scheduleMaintenance(
  db: Db,
  retentionDays: number | null | undefined,
  intervalMs: number,
): Promise<{ stop: () => void }> {
  const pruning = repeat(intervalMs, "[manutenção] falha ao remover registros antigos", async () => {
    if (retentionDays) {
      const deleted = await pruneAuditLogs(db, retentionDays);
      if (deleted) console.log(`Auditoria: ${deleted} registros com mais de ${retentionDays} dias removidos`);
    }
    await pruneRateLimits(db);
  });
  const purging = repeat(PENDING_PURGE_INTERVAL_MS, "[cadastros] falha ao remover contas não confirmadas", async () => {
    const purged = await purgeExpiredPendingAccounts(db);
    if (purged) console.log(`Cadastros: ${purged} contas não confirmadas em ${PENDING_ACCOUNT_MAX_AGE_DAYS} dias removidas`);
  });
  await purging.first;
  return {
    stop: () => {
      pruning.stop();
      purging.stop();
    },
  };
}
