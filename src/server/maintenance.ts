import { pruneAuditLogs } from "../lib/server/audit/retention.ts";
import {
  PENDING_ACCOUNT_MAX_AGE_DAYS,
  PENDING_PURGE_INTERVAL_MS,
  purgeExpiredPendingAccounts,
} from "../lib/server/auth/pending-accounts.ts";
import type { Db } from "../lib/server/data/db.ts";
import { pruneRateLimits } from "../lib/server/throttle/rate-limit.ts";
import { pruneRememberedDevices } from "../lib/server/sessions/remembered-device.ts";
import { sendReadingDigests } from "../lib/server/reading/digest.ts";
import { digestDue, isoWeekOf } from "../lib/server/reading/digest-week.ts";
import { pruneInsights } from "../lib/server/insights/retention.ts";

interface Repeating {
  /** Settles when the first pass has run. */
  first: Promise<void>;
  stop: () => void;
}

/**
 * Runs `task` now (or after `firstDelayMs`) and then every `intervalMs`, one pass at a time; a failed
 * pass is logged; the timer never keeps the process alive.
 */
function repeat(intervalMs: number, failure: string, task: () => Promise<void>, firstDelayMs = 0): Repeating {
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
  let timer: NodeJS.Timeout | undefined;
  const first = firstDelayMs ? Promise.resolve() : run();
  const delay = setTimeout(() => {
    if (firstDelayMs) void run();
    timer = setInterval(run, intervalMs);
    timer.unref();
  }, firstDelayMs || intervalMs);
  delay.unref();
  return {
    first,
    stop: () => {
      clearTimeout(delay);
      clearInterval(timer);
    },
  };
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
  digest: ReadingDigestSchedule | null = null,
  insights: InsightsRetention | null = null,
): Promise<{ stop: () => void }> {
  const pruning = repeat(intervalMs, "[manutenção] falha ao remover registros antigos", async () => {
    if (retentionDays) {
      const deleted = await pruneAuditLogs(db, retentionDays);
      if (deleted) console.log(`Auditoria: ${deleted} registros com mais de ${retentionDays} dias removidos`);
    }
    await pruneRateLimits(db);
    await pruneRememberedDevices(db);
    if (insights) {
      const pruned = await pruneInsights(db, insights.retentionDays, insights.timeZone);
      if (pruned.rows) console.log(`Insights: ${pruned.rows} agregados com mais de ${insights.retentionDays} dias removidos`);
    }
  });
  const purging = repeat(PENDING_PURGE_INTERVAL_MS, "[cadastros] falha ao remover contas não confirmadas", async () => {
    const purged = await purgeExpiredPendingAccounts(db);
    if (purged) console.log(`Cadastros: ${purged} contas não confirmadas em ${PENDING_ACCOUNT_MAX_AGE_DAYS} dias removidas`);
  });
  const reminding = digest ? scheduleReadingDigest(db, digest) : null;
  await purging.first;
  return {
    stop: () => {
      pruning.stop();
      purging.stop();
      reminding?.stop();
    },
  };
}

/** Insights aggregates older than `retentionDays` (INSIGHTS_RETENTION_DAYS) go at every maintenance pass. */
export interface InsightsRetention {
  retentionDays: number;
  timeZone: string;
}

export interface ReadingDigestSchedule {
  publicUrl: string;
  timeZone: string;
}

const DIGEST_INTERVAL_MS = 60 * 60 * 1000;
/** The first pass waits this long after start: a restart loop or a short-lived test server sends nothing. */
const DIGEST_FIRST_DELAY_MS = 5 * 60 * 1000;

/**
 * The weekly required-reading reminder: a pass every hour from Monday 09:00 (display time zone)
 * sends what this week still owes; once a pass ends with nothing failed, this process rests until
 * the next week (people confirmed mid-week get theirs the week after).
 */
function scheduleReadingDigest(db: Db, schedule: ReadingDigestSchedule): Repeating {
  let doneWeek = "";
  return repeat(
    DIGEST_INTERVAL_MS,
    "[leitura] falha no lembrete semanal",
    async () => {
      const now = Date.now();
      const week = isoWeekOf(now, schedule.timeZone);
      if (week === doneWeek || !digestDue(now, schedule.timeZone)) return;
      const run = await sendReadingDigests(db, { week, publicUrl: schedule.publicUrl });
      if (run.sent || run.failed || run.uncertain)
        console.log(
          `Leitura: lembrete semanal ${week}: ${run.sent} enviados, ${run.failed} falhas, ${run.uncertain} sem confirmação do servidor${run.uncertain ? " (não reenviados; veja npm run reading:digest -- --reenviar-falhas)" : ""}${run.stoppedUnreachable ? "; o servidor de e-mail não respondeu e a passada parou (os demais na próxima hora)" : ""}`,
        );
      if (!run.failed) doneWeek = week;
    },
    DIGEST_FIRST_DELAY_MS,
  );
}
