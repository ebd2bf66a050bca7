/**
 * Audit streaming (issue 45): every instance runs one loop per configured destination; the one
 * holding the destination's lease (state.ts) reads the rows after the cursor, sends them, and
 * moves the cursor only once the receiver took them. A crash between sending and moving the
 * cursor sends that batch again after the restart (at least once; the chain id lets the receiver
 * drop the duplicate). Retries back off exponentially with jitter, honouring Retry-After.
 */
import os from "node:os";
import { randomUUID } from "node:crypto";
import type { AuditStreamSettings } from "../../config/audit-stream.ts";
import { closeDatabase, type Db } from "../../data/db.ts";
import { GENESIS_HASH } from "../chain.ts";
import { toEvents } from "./event.ts";
import { createSyslogSender, createWebhookSender, DeliveryError, displayUrl, type Sender } from "./senders.ts";
import {
  advanceCursor,
  claimLease,
  destinationStates,
  ensureDestination,
  readBatch,
  recordError,
  releaseLease,
  stopDestination,
  type DestinationName,
  type DestinationState,
  type StreamedRow,
} from "./state.ts";

/**
 * The longest wait between attempts (unless the base itself is longer): a receiver back after an
 * outage of any length is tried again within this, so its lag is back under 2 s within 30 s.
 */
const BACKOFF_MAX_MS = 10_000;
/**
 * How often an instance that does not hold a destination's lease tries to take it, and how often the
 * holder renews it while a send is in flight: a sixth of the lease. So a dead holder's destination
 * moves within 7/6 of AUDIT_STREAM_LEASE_MS (7 s with the default 6 s).
 */
export function leaseLookMs(leaseMs: number): number {
  return Math.max(100, Math.floor(leaseMs / 6));
}

/**
 * A send is cut this long before the lease it holds would run out unrenewed (the renewals during it
 * failed): the lease's end is counted from when its last renewal was asked, on this instance's clock.
 */
export function leaseMarginMs(leaseMs: number): number {
  return Math.min(1000, Math.floor(leaseMs / 4));
}

/** A destination more than this far behind is a warning in /readyz. */
export const LAG_WARNING_SECONDS = 10 * 60;

/** Exponential backoff with jitter: between half and all of base·2^(attempt−1), at most BACKOFF_MAX_MS (or the base). */
export function backoffMs(attempt: number, base: number, random = Math.random): number {
  const ceiling = Math.min(Math.max(BACKOFF_MAX_MS, base), base * 2 ** Math.max(0, Math.min(attempt - 1, 20)));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

export interface ConfiguredDestination {
  name: DestinationName;
  /** Where it goes, as an administrator may see it (no credentials). */
  target: string;
}

export interface AuditStream {
  destinations: readonly ConfiguredDestination[];
  /** Each configured destination's state (cached for a second: the metric, /readyz and the admin tab read it). */
  states(): Promise<DestinationState[]>;
  stop(): Promise<void>;
}

interface Logger {
  warn(object: unknown, message?: string): void;
}

export function configuredDestinations(settings: AuditStreamSettings): ConfiguredDestination[] {
  const list: ConfiguredDestination[] = [];
  if (settings.webhook) list.push({ name: "webhook", target: displayUrl(settings.webhook.url) });
  if (settings.syslog)
    list.push({ name: "syslog", target: `${settings.syslog.tls ? "tls" : "tcp"}://${settings.syslog.host}:${settings.syslog.port}` });
  return list;
}

/** Starts one delivery loop per configured destination (none when nothing is configured). */
export async function startAuditStream(
  db: Db,
  settings: AuditStreamSettings,
  logger: Logger,
  /** Where batches are read: a read-only SQLite connection of the stream's own (see readBatch), or `db`. */
  reader: Db = db,
): Promise<AuditStream> {
  const senders: Sender[] = [];
  if (settings.webhook) senders.push(createWebhookSender(settings.webhook));
  if (settings.syslog) senders.push(createSyslogSender(settings.syslog));
  const destinations = configuredDestinations(settings);

  const instance = `${os.hostname()}:${process.pid}`;
  const owner = `${instance}:${randomUUID().slice(0, 8)}`;
  let stopped = false;
  const wakers = new Set<() => void>();
  function sleep(ms: number): Promise<void> {
    if (stopped) return Promise.resolve();
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        wakers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      wakers.add(wake);
    });
  }

  async function run(sender: Sender): Promise<void> {
    const { leaseMs, pollMs } = settings;
    const leaseStep = leaseLookMs(leaseMs);
    let attempt = 0;
    let retryAt = 0;
    let pending: { from: number; rows: StreamedRow[]; prevHash: string } | null = null;
    // The last row this loop delivered, as the next batch chains onto it (saves reading its hash again).
    let delivered: { id: number; hash: string } | undefined;
    // The destination's row is created by the loop, not before it starts: a database that refuses the
    // write (a full disk, a read-only replica) delays delivery, never the portal's start.
    let ensured = false;
    /** When the lease this loop holds runs out unless renewed (this instance's clock, counted from the asking). */
    let heldUntil = 0;
    /**
     * Sends while renewing the lease every leaseStep; the send is cut (`held` aborts) once the lease
     * could run out within leaseMarginMs, or another instance holds it: two instances never send at once,
     * whatever the receiver's pace (a send may be longer than the lease).
     */
    async function sendHoldingLease(events: Parameters<Sender["send"]>[0]): Promise<void> {
      const held = new AbortController();
      let cutTimer: NodeJS.Timeout | undefined;
      const armCut = () => {
        clearTimeout(cutTimer);
        cutTimer = setTimeout(() => held.abort(), Math.max(0, heldUntil - leaseMarginMs(leaseMs) - Date.now()));
      };
      armCut();
      let renewing = false;
      const renewal = setInterval(() => {
        if (renewing || held.signal.aborted) return;
        renewing = true;
        const asked = Date.now();
        claimLease(db, sender.name, owner, leaseMs)
          .then((renewed) => {
            if (!renewed) return held.abort();
            heldUntil = asked + leaseMs;
            if (!held.signal.aborted) armCut();
          })
          // The database is away: the cut comes when the lease could run out.
          .catch(() => undefined)
          .finally(() => (renewing = false));
      }, leaseStep);
      try {
        await sender.send(events, held.signal);
      } finally {
        clearInterval(renewal);
        clearTimeout(cutTimer);
      }
    }
    while (!stopped) {
      try {
        if (!ensured) {
          await ensureDestination(db, sender.name);
          ensured = true;
        }
        const asked = Date.now();
        const row = await claimLease(db, sender.name, owner, leaseMs);
        if (row) heldUntil = asked + leaseMs;
        if (!row) {
          // Another instance delivers: look again before its lease could have run out unrenewed.
          pending = null;
          await sleep(leaseStep);
          continue;
        }
        if (row.paused || row.stoppedReason !== null) {
          pending = null;
          attempt = 0;
          retryAt = 0;
          await sleep(pollMs);
          continue;
        }
        const wait = retryAt - Date.now();
        if (wait > 0) {
          // Waiting for a retry: in steps, so the lease is renewed meanwhile.
          await sleep(Math.min(wait, leaseStep));
          continue;
        }
        if (!pending || pending.from !== row.deliveredId) {
          const batch = await readBatch(reader, row.deliveredId, sender.batchSize, delivered);
          if (batch.rows.length === 0) {
            pending = null;
            await sleep(pollMs);
            continue;
          }
          pending = { from: row.deliveredId, ...batch };
        }
        const last = pending.rows.at(-1)!.id;
        try {
          await sendHoldingLease(toEvents(pending.rows, pending.prevHash, instance));
        } catch (error) {
          const failure = error instanceof DeliveryError ? error : new DeliveryError(String(error), "retry");
          if (failure.kind === "stop") {
            await stopDestination(db, sender.name, owner, failure.message);
            pending = null;
            continue;
          }
          attempt += 1;
          retryAt = Date.now() + Math.max(backoffMs(attempt, settings.backoffMs), failure.retryAfterMs ?? 0);
          await recordError(db, sender.name, failure.message);
          continue;
        }
        attempt = 0;
        const moved = await advanceCursor(db, sender.name, owner, pending.from, last);
        if (moved) delivered = { id: last, hash: pending.rows.at(-1)!.hash ?? GENESIS_HASH };
        const caughtUp = pending.rows.length < sender.batchSize;
        pending = null;
        // A short batch was the end of the log when read: wait for more rather than read again at once.
        if (moved && caughtUp) await sleep(pollMs);
      } catch (error) {
        // The database is away: try again shortly (nothing is lost, the cursor did not move).
        logger.warn({ err: error, destination: sender.name }, "envio da auditoria: falha ao ler ou gravar o estado");
        pending = null;
        await sleep(Math.max(pollMs, 1000));
      }
    }
  }

  const loops = senders.map((sender) => run(sender));
  return {
    destinations,
    states: cachedStates(db, destinations),
    async stop() {
      stopped = true;
      for (const wake of [...wakers]) wake();
      await Promise.allSettled(loops);
      for (const sender of senders) {
        sender.close();
        await releaseLease(db, sender.name, owner).catch(() => undefined);
      }
      if (reader !== db) await closeDatabase(reader);
    },
  };
}

/** The destinations' states, read again at most once a second (the metric, /readyz and the admin tab share them). */
export function cachedStates(db: Db, destinations: readonly ConfiguredDestination[]): () => Promise<DestinationState[]> {
  let cached: { at: number; states: Promise<DestinationState[]> } | undefined;
  return () => {
    const now = Date.now();
    if (!cached || now - cached.at > 1000) {
      const states = destinationStates(
        db,
        destinations.map((destination) => destination.name),
      );
      states.catch(() => (cached = undefined));
      cached = { at: now, states };
    }
    return cached.states;
  };
}

/** /readyz's warnings: a destination more than LAG_WARNING_SECONDS behind (readiness itself is not failed). */
export function lagWarnings(states: readonly DestinationState[]): string[] {
  return states
    .filter((state) => state.lagSeconds > LAG_WARNING_SECONDS)
    .map((state) => `envio da auditoria (${state.name}) atrasado ${Math.round(state.lagSeconds / 60)} min (${state.lagEvents} eventos)`);
}
