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
import { envConfigured, panelSyslogSettings, panelWebhookSettings } from "./panel.ts";
import {
  DESTINATION_NAMES,
  panelConfig,
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

/** A panel destination's settings as its sender was built from them (the sealed secrets carry a random IV: a new one differs). */
function fingerprint(
  row: Pick<DestinationState, "configVersion" | "url" | "secretSealed" | "previousSecretSealed" | "previousUntil">,
): string {
  return JSON.stringify([row.configVersion, row.url, row.secretSealed, row.previousSecretSealed, row.previousUntil]);
}

/** Starts one delivery loop per configured destination (none when nothing is configured). */
export async function startAuditStream(
  db: Db,
  settings: AuditStreamSettings,
  logger: Logger,
  /** Where batches are read: a read-only SQLite connection of the stream's own (see readBatch), or `db`. */
  reader: Db = db,
): Promise<AuditStream> {
  const senders = new Set<Sender>();
  const sources: { name: DestinationName; fixed: Sender | null }[] = [];
  if (settings.webhook) sources.push({ name: "webhook", fixed: createWebhookSender(settings.webhook) });
  if (settings.syslog) sources.push({ name: "syslog", fixed: createSyslogSender(settings.syslog) });
  // With the key, the destinations the environment leaves free may be set in the panel: a loop watches each.
  if (settings.destinationKey)
    for (const name of DESTINATION_NAMES) if (!envConfigured(settings, name)) sources.push({ name, fixed: null });
  for (const source of sources) if (source.fixed) senders.add(source.fixed);
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

  /** A panel destination's sender, built from its row; a string says why it cannot be. */
  function panelSender(name: DestinationName, row: Parameters<typeof panelWebhookSettings>[0]): Sender | string {
    if (name === "webhook") {
      const built = panelWebhookSettings(row, settings);
      return typeof built === "string" ? built : createWebhookSender(built);
    }
    const built = panelSyslogSettings(row, settings);
    return typeof built === "string" ? built : createSyslogSender(built);
  }

  async function run(source: { name: DestinationName; fixed: Sender | null }): Promise<void> {
    const { leaseMs, pollMs } = settings;
    const name = source.name;
    let sender: Sender | null = source.fixed;
    /**
     * What a panel destination's sender was built from ("": none): the version and the address and sealed secrets.
     * Not the version alone: a destination removed and added again between two looks has the old one's number.
     */
    let version = "";
    const dropSender = () => {
      if (source.fixed || !sender) return;
      sender.close();
      senders.delete(sender);
      sender = null;
      version = "";
    };
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
        claimLease(db, name, owner, leaseMs)
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
        await sender!.send(events, held.signal);
      } finally {
        clearInterval(renewal);
        clearTimeout(cutTimer);
      }
    }
    while (!stopped) {
      try {
        if (source.fixed && !ensured) {
          await ensureDestination(db, name);
          ensured = true;
        }
        if (!sender) {
          // A panel destination: is one set (a read, no write while there is none)?
          const config = await panelConfig(db, name);
          if (!config?.url) {
            await sleep(leaseStep);
            continue;
          }
          const built = panelSender(name, config);
          if (typeof built === "string") {
            await recordError(db, name, built);
            await sleep(Math.max(pollMs, 5000));
            continue;
          }
          sender = built;
          senders.add(built);
          version = fingerprint(config);
          pending = null;
          delivered = undefined;
          attempt = 0;
          retryAt = 0;
        }
        const asked = Date.now();
        const row = await claimLease(db, name, owner, leaseMs);
        if (row) heldUntil = asked + leaseMs;
        if (!row) {
          // Another instance delivers (or the panel removed the destination): look again before its lease could have run out unrenewed.
          pending = null;
          dropSender();
          await sleep(leaseStep);
          continue;
        }
        if (!source.fixed && fingerprint(row) !== version) {
          // Changed in the panel (on any instance): rebuilt from the row at the next step.
          dropSender();
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
            await stopDestination(db, name, owner, failure.message);
            pending = null;
            continue;
          }
          attempt += 1;
          retryAt = Date.now() + Math.max(backoffMs(attempt, settings.backoffMs), failure.retryAfterMs ?? 0);
          await recordError(db, name, failure.message);
          continue;
        }
        attempt = 0;
        const moved = await advanceCursor(db, name, owner, pending.from, last);
        if (moved) delivered = { id: last, hash: pending.rows.at(-1)!.hash ?? GENESIS_HASH };
        const caughtUp = pending.rows.length < sender.batchSize;
        pending = null;
        // A short batch was the end of the log when read: wait for more rather than read again at once.
        if (moved && caughtUp) await sleep(pollMs);
      } catch (error) {
        // The database is away: try again shortly (nothing is lost, the cursor did not move).
        logger.warn({ err: error, destination: name }, "envio da auditoria: falha ao ler ou gravar o estado");
        pending = null;
        await sleep(Math.max(pollMs, 1000));
      }
    }
  }

  const loops = sources.map((source) => run(source));
  return {
    destinations,
    states: cachedStates(db, settings),
    async stop() {
      stopped = true;
      for (const wake of [...wakers]) wake();
      await Promise.allSettled(loops);
      for (const sender of senders) sender.close();
      for (const source of sources) await releaseLease(db, source.name, owner).catch(() => undefined);
      if (reader !== db) await closeDatabase(reader);
    },
  };
}

/**
 * The destinations' states, read again at most once a second (the metric, /readyz and the admin tab share them):
 * those the environment sets and those set in the panel (a row with an address).
 */
export function cachedStates(db: Db, settings: AuditStreamSettings): () => Promise<DestinationState[]> {
  let cached: { at: number; states: Promise<DestinationState[]> } | undefined;
  return () => {
    const now = Date.now();
    if (!cached || now - cached.at > 1000) {
      const states = destinationStates(db, DESTINATION_NAMES).then((rows) =>
        rows.filter((row) => envConfigured(settings, row.name as DestinationName) || row.url !== null),
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
