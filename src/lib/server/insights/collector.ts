/**
 * Insights' in-memory counters, one set per instance. The gate counts each page served to a signed-in
 * person (see `isRead`); the search beacon adds searches. Every FLUSH_INTERVAL_MS the sums go to the
 * database in one transaction (store.ts: one batched upsert per table, adding this instance's deltas),
 * so several instances add up exactly and a SIGKILL loses at most one interval; SIGTERM flushes first.
 * Nothing here is written per view: the only per-person state is in memory (who was counted in the last
 * RELOAD_WINDOW_MS, and the readers and searchers of the current interval, hashed at the flush).
 */
import type { IncomingHttpHeaders } from "node:http";
import type { Principal } from "../../routes.ts";
import type { Db } from "../data/db.ts";
import { createClock, type Period } from "./calendar.ts";
import { flushInsights, type Pending, type WrittenRanks } from "./store.ts";

/**
 * Five seconds: short enough that a crash (SIGKILL, power loss) loses little and the Insights page is
 * current within seconds; long enough that a busy instance writes one transaction per 5 s instead of
 * one per page (at 200 pages/s, 1,000 reads become ~50 upserted rows).
 */
export const FLUSH_INTERVAL_MS = 5_000;
/** A page opened again by the same person within this window (a reload, back and forth) is one read. */
export const RELOAD_WINDOW_MS = 10 * 60_000;
/** Beacons one session may send per minute (a person finishes a few searches a minute at most). */
export const BEACONS_PER_MINUTE = 30;
/** Role name under which every read is counted once (the per-role rows count people holding each role). */
export const ALL_ROLES = "*";
export const NO_ROLE = "sem-perfil";

/** User agents that are programs, not people (a signed-in crawler or monitor must not count). */
const BOT_AGENT = /bot|crawl|spider|slurp|monitor|uptime|preview|curl|wget|python|go-http-client|java\/|httpclient|axios|node-fetch/i;

/** Headers by which browsers mark a speculative request (a prefetch or prerender nobody may look at). */
const PURPOSE_HEADERS = ["sec-purpose", "purpose", "x-purpose", "x-moz"] as const;
const SPECULATIVE = /prefetch|prerender|preview/i;

/** Whether a page answer is a read: GET, not a prefetch/prerender, not a revalidation, not a program. */
export function isReadRequest(method: string, headers: IncomingHttpHeaders): boolean {
  if (method !== "GET") return false;
  for (const name of PURPOSE_HEADERS) {
    const value = headers[name];
    if (value !== undefined && SPECULATIVE.test(String(value))) return false;
  }
  if (headers["if-none-match"] !== undefined || headers["if-modified-since"] !== undefined) return false;
  const agent = headers["user-agent"];
  return agent !== undefined && agent !== "" && !BOT_AGENT.test(agent);
}

export interface SearchReport {
  query: string;
  results: number;
  /** Position (from 1) of the result opened, or null. */
  opened: number | null;
}

export interface InsightsCollector {
  readonly enabled: boolean;
  /** Counts a page served (status 200) to a signed-in person, unless it is not a read. */
  countRead(method: string, headers: IncomingHttpHeaders, path: string, principal: Principal): void;
  /** Whether this session may send another beacon now (counts it). */
  allowBeacon(sessionId: string): boolean;
  /** Adds one finished search (already validated and normalised). */
  recordSearch(userId: string, report: SearchReport): void;
  /** The page's version as served (the feedback form's `data-opiniao-versao`), or undefined. */
  pageVersion(path: string): string | undefined;
  /** Writes what was counted since the last flush (at most one flush runs at a time). */
  flush(): Promise<void>;
  /** Stops the timer and flushes a last time (graceful shutdown). */
  stop(): Promise<void>;
  /**
   * Switches counting off or on again in a running process; only for the bench's cost comparison (main.ts,
   * B1_BENCH_TOGGLE_INSIGHTS). Off, nothing is counted and the flush timer's clock stands still: what was
   * counted waits, and is written once the process has counted for the rest of the interval, so the flushes
   * fall as often per second of counting as in a process that counts all the time (a flush at every switch
   * wrote once per window, several times as often). The reload memory and the beacon windows are dropped,
   * so the off side holds what a process started with INSIGHTS=false holds, less the counts of at most one
   * interval. Resolves once done.
   */
  setCounting(on: boolean): Promise<void>;
}

export function emptyPending(): Pending {
  return { reads: new Map(), readers: new Map(), searches: new Map(), searchers: new Map() };
}

/** Adds `from` into `into` (a failed flush gives its deltas back). */
export function mergePending(into: Pending, from: Pending): void {
  for (const [key, count] of from.reads) into.reads.set(key, (into.reads.get(key) ?? 0) + count);
  for (const [key, people] of from.readers) {
    const set = into.readers.get(key) ?? new Set<string>();
    for (const person of people) set.add(person);
    into.readers.set(key, set);
  }
  for (const [key, sums] of from.searches) {
    const known = into.searches.get(key);
    if (known) {
      known.searches += sums.searches;
      known.empty += sums.empty;
      known.opens += sums.opens;
    } else into.searches.set(key, { ...sums });
  }
  for (const [key, people] of from.searchers) {
    const set = into.searchers.get(key) ?? new Set<string>();
    for (const person of people) set.add(person);
    into.searchers.set(key, set);
  }
}

export interface CollectorOptions {
  db: Db;
  enabled: boolean;
  timeZone: string;
  /** Page path → version, read from the served pages (see pageVersions in page-versions.ts). */
  versions: ReadonlyMap<string, string>;
  now?: () => number;
  intervalMs?: number;
  logError?: (error: unknown) => void;
}

/** Keys of the pending maps join their parts with NUL, which no path, day or normalised query contains. */
const SEP = "\u0000";

/** People × pages remembered for RELOAD_WINDOW_MS at most; past it the window starts over. */
const MAX_REMEMBERED = 200_000;

/**
 * One page's reads of the current day since the last flush, counted in place: a read adds to numbers
 * and one set here, and the pending maps' string keys are built at the flush (once per page and role,
 * not once per read).
 */
interface PageCounts {
  day: string;
  week: string;
  all: number;
  none: number;
  byRole: Map<string, number>;
  readers: Set<string>;
}

/** Adds a page's counts to `into` under the pending maps' keys. */
function addPageCounts(into: Pending, path: string, counts: PageCounts): void {
  const add = (role: string, count: number) => {
    const key = path + SEP + counts.day + SEP + role;
    into.reads.set(key, (into.reads.get(key) ?? 0) + count);
  };
  if (counts.all > 0) add(ALL_ROLES, counts.all);
  if (counts.none > 0) add(NO_ROLE, counts.none);
  for (const [role, count] of counts.byRole) add(role, count);
  if (counts.readers.size === 0) return;
  const readersKey = path + SEP + counts.week;
  const known = into.readers.get(readersKey);
  if (known) for (const person of counts.readers) known.add(person);
  else into.readers.set(readersKey, counts.readers);
}

export function createInsightsCollector(options: CollectorOptions): InsightsCollector {
  const { db, versions } = options;
  let enabled = options.enabled;
  const now = options.now ?? Date.now;
  const clock: () => Period = createClock(options.timeZone, now);
  let pending = emptyPending();
  /**
   * person → page → the second it was last counted, from the collector's start (nested: no key string is built per
   * page served; a small integer, where a Date.now() value is a heap number, one more object per entry to trace).
   */
  const lastCounted = new Map<string, Map<string, number>>();
  const epoch = now();
  const secondOf = (at: number) => Math.floor((at - epoch) / 1000);
  const reloadSeconds = RELOAD_WINDOW_MS / 1000;
  let remembered = 0;
  /** When `forgetOld` last walked the remembered reads (a walk over up to MAX_REMEMBERED entries, once a minute is enough). */
  let forgotAt = -Infinity;
  /** Per page, the reads of the current day not yet moved to `pending` (at the flush or when the day turns). */
  const pageCounts = new Map<string, PageCounts>();
  const beacons = new Map<string, { windowStart: number; count: number }>();
  let flushing: Promise<void> | null = null;
  const written: WrittenRanks = new Map();
  let timer: NodeJS.Timeout | undefined;
  /** When the timer's next flush is due (Date.now()), and, while counting is switched off, how long it still has to run. */
  let flushDueAt = 0;
  let pausedFor: number | null = null;

  function forgetOld(at: number) {
    if (at - forgotAt < 60_000) return;
    forgotAt = at;
    remembered = 0;
    const second = secondOf(at);
    for (const [person, pages] of lastCounted) {
      for (const [path, when] of pages) if (second - when >= reloadSeconds) pages.delete(path);
      if (pages.size === 0) lastCounted.delete(person);
      else remembered += pages.size;
    }
    for (const [key, window] of beacons) if (at - window.windowStart >= 60_000) beacons.delete(key);
  }

  /** The counts of `path` for the current day and week (a page's counts of an earlier day go to `pending` first). */
  function countsOf(path: string): PageCounts {
    const { day, week } = clock();
    let counts = pageCounts.get(path);
    if (counts?.day === day && counts.week === week) return counts;
    if (counts) addPageCounts(pending, path, counts);
    // Paths are the site's pages, a few hundred; the bound only guards against a surprise.
    else if (pageCounts.size >= 10_000) drainCounts();
    counts = { day, week, all: 0, none: 0, byRole: new Map(), readers: new Set() };
    pageCounts.set(path, counts);
    return counts;
  }

  /** Moves every page's counts to `pending`. */
  function drainCounts() {
    for (const [path, counts] of pageCounts) addPageCounts(pending, path, counts);
    pageCounts.clear();
  }

  async function runFlush() {
    drainCounts();
    const batch = pending;
    pending = emptyPending();
    forgetOld(now());
    if (batch.reads.size === 0 && batch.readers.size === 0 && batch.searches.size === 0 && batch.searchers.size === 0) return;
    try {
      await flushInsights(db, batch, written);
    } catch (error) {
      // The database is away: the deltas wait for the next flush (a commit whose answer was lost may count twice).
      mergePending(pending, batch);
      (options.logError ?? ((e) => console.error("[insights] falha ao gravar as métricas", e)))(error);
    }
  }

  const intervalMs = options.intervalMs ?? FLUSH_INTERVAL_MS;
  /** Flushes every intervalMs, the first time after `firstMs`. */
  const startTimer = (firstMs = intervalMs) => {
    flushDueAt = Date.now() + firstMs;
    timer = setTimeout(() => {
      startTimer();
      void collector.flush();
    }, firstMs);
    timer.unref();
  };
  const collector: InsightsCollector = {
    get enabled() {
      return enabled;
    },
    countRead(method, headers, path, principal) {
      if (!enabled || !isReadRequest(method, headers)) return;
      const second = secondOf(now());
      let pages = lastCounted.get(principal.userId);
      const last = pages?.get(path);
      if (last !== undefined && second - last < reloadSeconds) return;
      // A bound on memory: past it the window restarts (a reload may then count twice).
      let added = last === undefined;
      if (remembered >= MAX_REMEMBERED) {
        lastCounted.clear();
        remembered = 0;
        pages = undefined;
        added = true;
      }
      if (!pages) lastCounted.set(principal.userId, (pages = new Map()));
      if (added) remembered += 1;
      pages.set(path, second);
      const counts = countsOf(path);
      counts.all += 1;
      if (principal.roles.length === 0) counts.none += 1;
      for (const role of principal.roles) counts.byRole.set(role, (counts.byRole.get(role) ?? 0) + 1);
      counts.readers.add(principal.userId);
    },
    allowBeacon(sessionId) {
      if (!enabled) return false;
      const at = now();
      const window = beacons.get(sessionId);
      if (!window || at - window.windowStart >= 60_000) {
        if (beacons.size >= 100_000) beacons.clear();
        beacons.set(sessionId, { windowStart: at, count: 1 });
        return true;
      }
      if (window.count >= BEACONS_PER_MINUTE) return false;
      window.count += 1;
      return true;
    },
    recordSearch(userId, report) {
      if (!enabled) return;
      const { day } = clock();
      const key = report.query + SEP + day;
      const sums = pending.searches.get(key) ?? { searches: 0, empty: 0, opens: 0 };
      sums.searches += 1;
      if (report.results === 0) sums.empty += 1;
      if (report.opened !== null) sums.opens += 1;
      pending.searches.set(key, sums);
      const peopleKey = report.query + SEP + day;
      let people = pending.searchers.get(peopleKey);
      if (!people) pending.searchers.set(peopleKey, (people = new Set()));
      people.add(userId);
    },
    pageVersion(path) {
      return versions.get(path);
    },
    flush() {
      flushing ??= runFlush().finally(() => (flushing = null));
      return flushing;
    },
    async stop() {
      clearTimeout(timer);
      pausedFor = null;
      await flushing;
      await collector.flush();
    },
    async setCounting(on) {
      if (on === enabled) return;
      enabled = on;
      if (on) return startTimer(pausedFor ?? intervalMs);
      clearTimeout(timer);
      pausedFor = Math.max(0, flushDueAt - Date.now());
      await flushing;
      // Nothing else held, as in a process started with INSIGHTS=false (the comparison's other side).
      lastCounted.clear();
      remembered = 0;
      beacons.clear();
    },
  };
  if (enabled) startTimer();
  return collector;
}

export { SEP as PENDING_SEPARATOR };
