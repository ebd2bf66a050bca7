/**
 * Insights' in-memory counters, one set per instance. The gate counts each page served to a signed-in
 * person (see `isReadRequest`): on the serving path a read is only queued, and the queue is counted in one
 * go QUEUE_DELAY_MS later (or once QUEUE_SIZE reads wait), each as of the instant it was served. The search
 * beacon adds searches. Every FLUSH_INTERVAL_MS the sums go to the
 * database in one transaction (store.ts: one batched upsert per table, adding this instance's deltas),
 * so several instances add up exactly and a SIGKILL loses at most one interval; SIGTERM flushes first.
 * Nothing here is written per view: the only per-person state is in memory (who was counted in the last
 * RELOAD_WINDOW_MS, and the searchers of the current interval, hashed at the flush). A reader goes into the
 * page's readers sketch as counted (a keyed hash under the week's key); only in the moment the week's key is
 * being read from the database are readers kept as ids until the flush.
 */
import type { IncomingHttpHeaders } from "node:http";
import type { Principal } from "../../routes.ts";
import type { Db } from "../data/db.ts";
import { createClock, type Period } from "./calendar.ts";
import { HLL_REGISTERS, packedReaderUpdate, PAGE_PREFIX, PERSON_PREFIX, type HashWords } from "./hll.ts";
import { insightsKey, keyedWords, weekKeyName } from "./keys.ts";
import { flushInsights, type Pending, type WrittenRanks } from "./store.ts";

/**
 * Five seconds: short enough that a crash (SIGKILL, power loss) loses little and the Insights page is
 * current within seconds; long enough that a busy instance writes one transaction per 5 s instead of
 * one per page (at 200 pages/s, 1,000 reads become ~50 upserted rows).
 */
export const FLUSH_INTERVAL_MS = 5_000;
/** A page opened again by the same person within this window (a reload, back and forth) is one read. */
export const RELOAD_WINDOW_MS = 10 * 60_000;
/** Beacons one person may send per minute, over all their sessions (a person finishes a few searches a minute at most). */
export const BEACONS_PER_MINUTE = 30;
/** Role name under which every read is counted once (the per-role rows count people holding each role). */
export const ALL_ROLES = "*";
export const NO_ROLE = "sem-perfil";

/** User agents that are programs, not people (a signed-in crawler or monitor must not count). */
const BOT_AGENT = /bot|crawl|spider|slurp|monitor|uptime|preview|curl|wget|python|go-http-client|java\/|httpclient|axios|node-fetch/i;

/** Headers by which browsers mark a speculative request (a prefetch or prerender nobody may look at). */
const PURPOSE_HEADERS = ["sec-purpose", "purpose", "x-purpose", "x-moz"] as const;
const SPECULATIVE = /prefetch|prerender|preview/i;

/** User agents already tested against BOT_AGENT (a browser sends the same string on every request). */
const programAgents = new Map<string, boolean>();

/** Whether a page answer is a read: GET, not a prefetch/prerender, not a revalidation, not a program. */
export function isReadRequest(method: string, headers: IncomingHttpHeaders): boolean {
  if (method !== "GET") return false;
  for (const name of PURPOSE_HEADERS) {
    const value = headers[name];
    if (value !== undefined && SPECULATIVE.test(String(value))) return false;
  }
  if (headers["if-none-match"] !== undefined || headers["if-modified-since"] !== undefined) return false;
  const agent = headers["user-agent"];
  if (agent === undefined || agent === "") return false;
  let program = programAgents.get(agent);
  if (program === undefined) {
    program = BOT_AGENT.test(agent);
    // Anyone may send any string: the memory stays bounded (1,000 strings of at most 512 characters).
    if (agent.length <= 512) {
      if (programAgents.size >= 1000) programAgents.clear();
      programAgents.set(agent, program);
    }
  }
  return !program;
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
  /** Whether this person (their account id, over all their sessions) may send another beacon now (counts it). */
  allowBeacon(personId: string): boolean;
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
  return { reads: new Map(), readers: new Map(), sketches: new Map(), searches: new Map(), searchers: new Map() };
}

/** Raises `into`'s registers to `from`'s where higher (a sketch's union). */
function raiseRanks(into: Uint8Array, from: Uint8Array): void {
  for (let register = 0; register < from.length; register++) if (from[register]! > into[register]!) into[register] = from[register]!;
}

/** Adds `from` into `into` (a failed flush gives its deltas back). */
export function mergePending(into: Pending, from: Pending): void {
  for (const [key, count] of from.reads) into.reads.set(key, (into.reads.get(key) ?? 0) + count);
  for (const [key, people] of from.readers) {
    const set = into.readers.get(key) ?? new Set<string>();
    for (const person of people) set.add(person);
    into.readers.set(key, set);
  }
  for (const [key, ranks] of from.sketches) {
    const known = into.sketches.get(key);
    if (known) raiseRanks(known, ranks);
    else into.sketches.set(key, ranks);
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
  /** People × pages remembered at most (MAX_REMEMBERED; a test reaches a smaller bound without 200,000 reads). */
  maxRemembered?: number;
  logError?: (error: unknown) => void;
}

/** Keys of the pending maps join their parts with NUL, which no path, day or normalised query contains. */
const SEP = "\u0000";

/** People × pages remembered for RELOAD_WINDOW_MS at most; past it the window starts over. */
export const MAX_REMEMBERED = 200_000;
/** Reads queued at most before they are counted at once (see countQueued). */
export const QUEUE_SIZE = 1024;
/** How long the first read queued waits for others to be counted with it. */
export const QUEUE_DELAY_MS = 20;
/** Distinct page paths held at most (the site has a few hundred; the bound only guards against a surprise). */
const MAX_PAGES = 10_000;

/**
 * One page's reads of the current day since the last flush, counted in place: a read adds to numbers
 * here, and the pending maps' string keys are built at the flush (once per page and role, not once per read).
 * Its readers go into `ranks`, the page's readers sketch for the week (a keyed hash of each person, so no id
 * is held for the flush), or, while the week's key is still being read from the database, into `readers`,
 * hashed at the flush.
 */
interface PageCounts {
  day: string;
  week: string;
  all: number;
  none: number;
  byRole: Map<string, number>;
  /** The week's key and the page's hash words under it, when at hand. */
  key: Buffer | null;
  pageWords: HashWords | null;
  ranks: Uint8Array | null;
  readers: Set<string>;
}

/**
 * One person's recent reads: page numbers (see `pageNumber`) and the second each was counted, side by side in
 * one array of small integers (a person opens a few pages in RELOAD_WINDOW_MS: a scan of a short array is
 * cheaper than a map per person, and the garbage collector traces one object instead of a map's entries).
 * Also the person's hash words under the current week's key, computed once.
 */
interface PersonReads {
  pages: number[];
  key: Buffer | null;
  words: HashWords | null;
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
  const readersKey = path + SEP + counts.week;
  if (counts.ranks) {
    const known = into.sketches.get(readersKey);
    if (known) raiseRanks(known, counts.ranks);
    else into.sketches.set(readersKey, counts.ranks);
  }
  if (counts.readers.size === 0) return;
  const known = into.readers.get(readersKey);
  if (known) for (const person of counts.readers) known.add(person);
  else into.readers.set(readersKey, counts.readers);
}

export function createInsightsCollector(options: CollectorOptions): InsightsCollector {
  const { db, versions } = options;
  let enabled = options.enabled;
  const now = options.now ?? Date.now;
  const clock: (at?: number) => Period = createClock(options.timeZone, now);
  let pending = emptyPending();
  /** The instant second 0 of the remembered reads stands for: seconds since then are small integers (a Date.now() value is a heap number). */
  const epoch = now();
  const secondOf = (at: number) => Math.floor((at - epoch) / 1000);
  const reloadSeconds = RELOAD_WINDOW_MS / 1000;
  /** Page path → its number in `paths` and `pageCounts` (numbers stand for paths in the remembered reads). */
  const pageNumbers = new Map<string, number>();
  const paths: string[] = [];
  /** Per page number, the reads of the current day not yet moved to `pending` (at the flush or when the day turns). */
  const pageCounts: (PageCounts | undefined)[] = [];
  /** Person → their reads of the last RELOAD_WINDOW_MS. */
  const people = new Map<string, PersonReads>();
  let remembered = 0;
  /** When `forgetOld` last walked the remembered reads (a walk over up to MAX_REMEMBERED entries, once a minute is enough). */
  let forgotAt = -Infinity;
  /** The current week's key for the readers sketches, once read from the database (keys.ts; the same on every instance). */
  let weekKey: { week: string; key: Buffer } | null = null;
  let loadingWeek: string | null = null;
  /** After a failed read of the key, not before this instant (the database away: no read per page served). */
  let keyRetryAt = -Infinity;
  const beacons = new Map<string, { windowStart: number; count: number }>();
  let flushing: Promise<void> | null = null;
  const written: WrittenRanks = new Map();
  let timer: NodeJS.Timeout | undefined;
  /** When the timer's next flush is due (Date.now()), and, while counting is switched off, how long it still has to run. */
  let flushDueAt = 0;
  let pausedFor: number | null = null;
  const intervalMs = options.intervalMs ?? FLUSH_INTERVAL_MS;
  const maxRemembered = options.maxRemembered ?? MAX_REMEMBERED;
  /** Reads served and not yet counted (see countQueued): side by side, the person, the page, their roles and the instant. */
  const queuedUsers: (string | undefined)[] = new Array<string | undefined>(QUEUE_SIZE).fill(undefined);
  const queuedPaths: (string | undefined)[] = new Array<string | undefined>(QUEUE_SIZE).fill(undefined);
  const queuedRoles: (readonly string[] | undefined)[] = new Array<readonly string[] | undefined>(QUEUE_SIZE).fill(undefined);
  const queuedAt = new Float64Array(QUEUE_SIZE);
  let queued = 0;
  /** Counts what was queued QUEUE_DELAY_MS after the first read queued: one timer, re-armed by `refresh` (none made per read). */
  const queueTimer = setTimeout(() => countQueued(), QUEUE_DELAY_MS).unref();

  function forgetOld(at: number) {
    if (at - forgotAt < 60_000) return;
    forgotAt = at;
    remembered = 0;
    const second = secondOf(at);
    for (const [person, reads] of people) {
      const { pages } = reads;
      let kept = 0;
      for (let index = 0; index < pages.length; index += 2) {
        if (second - pages[index + 1]! >= reloadSeconds) continue;
        pages[kept] = pages[index]!;
        pages[kept + 1] = pages[index + 1]!;
        kept += 2;
      }
      pages.length = kept;
      if (kept === 0) people.delete(person);
      else remembered += kept / 2;
    }
    for (const [key, window] of beacons) if (at - window.windowStart >= 60_000) beacons.delete(key);
  }

  /** The number standing for `path` (a new one for a path not seen before). */
  function pageNumber(path: string): number {
    let page = pageNumbers.get(path);
    if (page !== undefined) return page;
    if (paths.length >= MAX_PAGES) forgetAll();
    page = paths.length;
    paths.push(path);
    pageNumbers.set(path, page);
    return page;
  }

  /** The week's sketch key, or null while it is being read (the first read of a week starts reading it). */
  function keyOf(week: string, at: number): Buffer | null {
    if (weekKey?.week === week) return weekKey.key;
    if (loadingWeek !== week && at >= keyRetryAt) {
      loadingWeek = week;
      insightsKey(db, weekKeyName(week)).then(
        (key) => {
          if (loadingWeek === week) weekKey = { week, key };
        },
        // The database is away: the readers wait in `readers` (hashed at the flush), and a read one interval later tries again.
        () => {
          if (loadingWeek !== week) return;
          loadingWeek = null;
          keyRetryAt = now() + intervalMs;
        },
      );
    }
    return null;
  }

  /** The counts of a page for the current day and week (a page's counts of an earlier day go to `pending` first). */
  function countsOf(page: number, at: number): PageCounts {
    const { day, week } = clock(at);
    let counts = pageCounts[page];
    if (counts?.day === day && counts.week === week) {
      if (counts.key === null) attachKey(counts, page, at);
      return counts;
    }
    if (counts) addPageCounts(pending, paths[page]!, counts);
    counts = { day, week, all: 0, none: 0, byRole: new Map(), key: null, pageWords: null, ranks: null, readers: new Set() };
    attachKey(counts, page, at);
    pageCounts[page] = counts;
    return counts;
  }

  /** Gives a page's counts the week's key and a sketch, if the key is at hand. */
  function attachKey(counts: PageCounts, page: number, at: number) {
    const key = keyOf(counts.week, at);
    if (!key) return;
    counts.key = key;
    counts.pageWords = keyedWords(key, PAGE_PREFIX, paths[page]!);
    counts.ranks = new Uint8Array(HLL_REGISTERS);
  }

  /**
   * Counts the queued reads, in order, as of the instant each was served. The serving path only queues (four
   * stores): counted there, each read met the maps and the person's memory cold from the page's own work
   * (2.5–6 µs a read in the gate, against ~0.3 µs for the same code over a batch).
   */
  function countQueued() {
    const count = queued;
    queued = 0;
    for (let index = 0; index < count; index++) {
      countOne(queuedUsers[index]!, queuedPaths[index]!, queuedRoles[index]!, queuedAt[index]!);
      queuedUsers[index] = undefined;
      queuedPaths[index] = undefined;
      queuedRoles[index] = undefined;
    }
  }

  /** Counts one read served at `at`, unless the person read the page within RELOAD_WINDOW_MS. */
  function countOne(userId: string, path: string, roles: readonly string[], at: number) {
    const second = secondOf(at);
    let page = pageNumber(path);
    let person = people.get(userId);
    let index = 0;
    if (person) {
      const { pages } = person;
      while (index < pages.length && pages[index] !== page) index += 2;
      if (index < pages.length && second - pages[index + 1]! < reloadSeconds) return;
    }
    if (person && index < person.pages.length) person.pages[index + 1] = second;
    else {
      // A bound on memory: past it the window restarts (a reload may then count twice).
      if (remembered >= maxRemembered) {
        forgetAll();
        page = pageNumber(path);
        person = undefined;
      }
      if (person) person.pages.push(page, second);
      else people.set(userId, (person = { pages: [page, second], key: null, words: null }));
      remembered += 1;
    }
    const counts = countsOf(page, at);
    counts.all += 1;
    if (roles.length === 0) counts.none += 1;
    for (const role of roles) counts.byRole.set(role, (counts.byRole.get(role) ?? 0) + 1);
    if (counts.key === null) {
      counts.readers.add(userId);
      return;
    }
    if (person.key !== counts.key) {
      person.key = counts.key;
      person.words = keyedWords(counts.key, PERSON_PREFIX, userId);
    }
    const update = packedReaderUpdate(person.words!, counts.pageWords!);
    const register = update >>> 8;
    const rank = update & 0xff;
    if (rank > counts.ranks![register]!) counts.ranks![register] = rank;
  }

  /** Moves every page's counts to `pending`. */
  function drainCounts() {
    countQueued();
    for (let page = 0; page < pageCounts.length; page++) {
      const counts = pageCounts[page];
      if (counts) addPageCounts(pending, paths[page]!, counts);
    }
    pageCounts.length = 0;
  }

  /** Moves the counts to `pending` and forgets who read what (the memory bounds; counting switched off). */
  function forgetAll() {
    drainCounts();
    pageNumbers.clear();
    paths.length = 0;
    people.clear();
    remembered = 0;
  }

  async function runFlush() {
    drainCounts();
    const batch = pending;
    pending = emptyPending();
    forgetOld(now());
    if (
      batch.reads.size === 0 &&
      batch.readers.size === 0 &&
      batch.sketches.size === 0 &&
      batch.searches.size === 0 &&
      batch.searchers.size === 0
    )
      return;
    try {
      await flushInsights(db, batch, written);
    } catch (error) {
      // The database is away: the deltas wait for the next flush (a commit whose answer was lost may count twice).
      mergePending(pending, batch);
      (options.logError ?? logFlushError)(error);
    }
  }

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
      queuedUsers[queued] = principal.userId;
      queuedPaths[queued] = path;
      queuedRoles[queued] = principal.roles;
      queuedAt[queued] = now();
      queued += 1;
      if (queued === QUEUE_SIZE) countQueued();
      else if (queued === 1) queueTimer.refresh();
    },
    allowBeacon(personId) {
      if (!enabled) return false;
      const at = now();
      const window = beacons.get(personId);
      if (!window || at - window.windowStart >= 60_000) {
        if (beacons.size >= 100_000) beacons.clear();
        beacons.set(personId, { windowStart: at, count: 1 });
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
      forgetAll();
      beacons.clear();
    },
  };
  if (enabled) startTimer();
  return collector;
}

export { SEP as PENDING_SEPARATOR };

/** An error of the flush, for the log: its name and code, never its message (which may quote search texts). */
export function describeFlushError(error: unknown): string {
  if (!(error instanceof Error)) return "erro desconhecido";
  const code = (error as { code?: unknown }).code ?? (error.cause as { code?: unknown } | undefined)?.code;
  return typeof code === "string" ? `${error.name} (${code})` : error.name;
}

/**
 * A refused write is one line, not a stack repeated at every flush: a full disk says so (SQLITE_FULL,
 * PostgreSQL's 53100); never the driver's message, which may quote search texts not yet shown.
 */
function logFlushError(error: unknown): void {
  const code = (error as { code?: unknown } | null)?.code;
  const full = code === "SQLITE_FULL" || code === "53100" ? "disco cheio; " : "";
  console.error(`[insights] falha ao gravar as métricas (${full}${describeFlushError(error)}); as contagens esperam a próxima gravação`);
}
