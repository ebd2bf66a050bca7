/**
 * The report's totals per required page and version: how many must read it and how many
 * confirmed, overall and per role. Every page of the build is counted in one pass: pages with the
 * same audience (audience.ts) share their queries — the audience once, then each reader's newest
 * confirmed version of each page, grouped — so any version's total is a sum (confirmed v or newer).
 * That reads every confirmation once (seconds at 100,000 people × 50 pages), so the counts are
 * kept in memory per build, started when the server starts, and refreshed in the background once
 * older than TALLY_TTL_MS or after a confirmation (once the last count rested twice its own
 * duration, so a stream of confirmations keeps the counting busy a third of the time at most): a
 * request is answered from memory (a stale
 * total is shown with its time); with none yet, it waits at most FIRST_WAIT_MS and is then told to
 * come back. On SQLite the counting runs on a worker thread (reading-worker.ts), never on the
 * thread that serves requests. The list of people is never cached.
 *
 * Several instances (PostgreSQL): a confirmation bumps `reading_tally_version` in its own
 * transaction (a statement trigger, migration 0013), whichever instance took it. Each count
 * remembers the value it started from, and each report request reads it (one indexed read): a
 * value that moved marks this instance's counts stale too, so every instance shows the new totals
 * within seconds instead of after TALLY_TTL_MS. SQLite is one process: its own flag is enough.
 *
 * The gate and the Astro server are two bundles with two copies of this module: the counts live
 * on globalThis (like the database handle), so the count the gate starts is the one the report reads.
 */
import fs from "node:fs";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { sql } from "drizzle-orm";
import type { PageTally } from "../../reading/report.ts";
import type { RequiredPage } from "../../reading/required-page.ts";
import type { Db } from "../data/db.ts";
import { loadAccessData } from "./audience.ts";
import { config } from "../config/config.ts";
import { onPostgres } from "../data/dialect.ts";
import { logger } from "../platform/logger.ts";
import { readingManifest } from "./manifest.ts";
import { countTallies, tallyOf, type TallyCounts, type TallyReply, type TallyRequest } from "./tally-count.ts";
import { distDir } from "../../settings.ts";

const TALLY_TTL_MS = 5 * 60_000;
/** How long a request waits for totals never counted before answering "come back shortly". */
export const FIRST_WAIT_MS = 5_000;

/** The bundled worker next to the gate, or its source when running unbuilt (tests, dev). */
function workerFile(): string {
  const built = path.join(distDir(), "gate", "reading-worker.mjs");
  return fs.existsSync(built) ? built : path.resolve("src/server/reading-worker.ts");
}

interface TallyState {
  buildId: string;
  counts?: TallyCounts;
  /** The count under way, shared by every request that arrives meanwhile. */
  counting?: Promise<TallyCounts>;
  /** A confirmation arrived since the counts were taken. */
  stale: boolean;
  /** PostgreSQL: `reading_tally_version` when the counts in memory, and the count under way, started. */
  countedVersion?: number;
  countingVersion?: number;
  /** When the last count ended and how long it took (a count after a confirmation waits twice that). */
  lastEndedAt: number;
  lastTookMs: number;
  worker?: Worker;
  waiting: Map<number, { resolve: (counts: TallyCounts) => void; reject: (error: Error) => void }>;
  nextId: number;
}

const SHARED = Symbol.for("b1.reading.tallies");
type Shared = { [SHARED]?: TallyState };

function state(): TallyState {
  const holder = globalThis as Shared;
  return (holder[SHARED] ??= { buildId: "", stale: false, lastEndedAt: 0, lastTookMs: 0, waiting: new Map(), nextId: 1 });
}

/** Counts on the worker thread (started on first use, kept, never keeping the process alive). */
function countOnWorker(): Promise<TallyCounts> {
  const shared = state();
  if (!shared.worker) {
    const worker = new Worker(workerFile(), { workerData: { databasePath: config().databasePath } });
    const failWaiting = (error: Error) => {
      for (const waiter of shared.waiting.values()) waiter.reject(error);
      shared.waiting.clear();
      if (shared.worker === worker) shared.worker = undefined;
    };
    worker.unref();
    worker.on("message", (reply: TallyReply) => {
      const waiter = shared.waiting.get(reply.id);
      shared.waiting.delete(reply.id);
      if (reply.ok) waiter?.resolve(reply.counts);
      else waiter?.reject(new Error(reply.message));
    });
    worker.on("error", failWaiting);
    worker.on("exit", () => failWaiting(new Error("contador do relatório de leitura encerrado")));
    shared.worker = worker;
  }
  const id = shared.nextId++;
  const worker = shared.worker;
  return new Promise((resolve, reject) => {
    shared.waiting.set(id, { resolve, reject });
    worker.postMessage({ id } satisfies TallyRequest);
  });
}

/** The counts of this build, counting them (once at a time) when missing, stale or old. */
function refresh(db: Db, now: number): TallyState {
  const shared = state();
  const { buildId, pages } = readingManifest();
  if (shared.buildId !== buildId)
    Object.assign(shared, { buildId, counts: undefined, counting: undefined, stale: false, countedVersion: undefined });
  // Confirmations arriving all the time recount at most a third of the time (a count is seconds at 100,000 people).
  const rested = now - shared.lastEndedAt >= 2 * shared.lastTookMs;
  const due = !shared.counts || (shared.stale && rested) || now - shared.counts.countedAt > TALLY_TTL_MS;
  if (due && !shared.counting && pages.length) {
    shared.stale = false;
    const started = Date.now();
    let version: number | undefined;
    const counting = (onPostgres ? countOnPostgres(db, pages, (read) => (version = shared.countingVersion = read)) : countOnWorker()).then(
      (counts) => {
        // The time shown is when the count was asked for: what it read is at least that new.
        const asked = { ...counts, countedAt: started };
        if (shared.buildId === buildId) Object.assign(shared, { counts: asked, countedVersion: version });
        shared.lastEndedAt = Date.now();
        shared.lastTookMs = shared.lastEndedAt - started;
        return asked;
      },
    );
    shared.counting = counting;
    // A failed count is told to the requests waiting for it and logged; the next request counts again.
    void counting
      .catch((error: unknown) => logger().warn({ err: error }, "relatório de leitura: a contagem dos totais falhou"))
      .finally(() => {
        if (shared.counting === counting) Object.assign(shared, { counting: undefined, countingVersion: undefined });
      });
  }
  return shared;
}

/** The shared counter a confirmation bumps (PostgreSQL); undefined when it cannot be read (the counts then age by TALLY_TTL_MS). */
async function tallyVersion(db: Db): Promise<number | undefined> {
  try {
    const [row] = await db
      .select({ version: sql<number>`version`.mapWith(Number) })
      .from(sql`reading_tally_version`)
      .where(sql`id = 1`);
    return row?.version;
  } catch (error) {
    logger().warn({ err: error }, "relatório de leitura: contador compartilhado dos totais ilegível");
    return undefined;
  }
}

/** The count on PostgreSQL, telling `started` the shared counter's value it started from (read first). */
async function countOnPostgres(
  db: Db,
  pages: readonly RequiredPage[],
  started: (version: number | undefined) => void,
): Promise<TallyCounts> {
  started(await tallyVersion(db));
  return countTallies(db, pages, await loadAccessData(db));
}

/** Another instance took a confirmation since these counts (or the count under way) started: count again. */
async function noticeOtherInstances(db: Db): Promise<void> {
  const shared = state();
  if (shared.countedVersion === undefined) return;
  const version = await tallyVersion(db);
  if (version !== undefined && version !== shared.countedVersion && version !== shared.countingVersion) shared.stale = true;
}

/** Starts counting this build's totals (server start), so the report's first visit finds them. */
export function startCountingTallies(db: Db): void {
  refresh(db, Date.now());
}

/**
 * The tallies of `wanted` (page and version pairs), from memory when there; old or stale counts
 * are counted again in the background. Null when the pages were never counted and the count did
 * not end within `firstWaitMs` (it goes on: ask again shortly).
 */
export async function tallies(
  db: Db,
  wanted: readonly { page: RequiredPage; version: number }[],
  now = Date.now(),
  firstWaitMs = FIRST_WAIT_MS,
): Promise<PageTally[] | null> {
  if (onPostgres) await noticeOtherInstances(db);
  const shared = refresh(db, now);
  let counts = shared.counts;
  if (!counts) {
    if (!shared.counting) return wanted.map(({ page, version }) => tallyOf({ countedAt: now, roles: [], pages: {} }, page, version));
    let timer: NodeJS.Timeout | undefined;
    counts =
      (await Promise.race([
        shared.counting,
        new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), firstWaitMs))),
      ]).finally(() => clearTimeout(timer))) ?? undefined;
    if (!counts) return null;
  }
  return wanted.map(({ page, version }) => tallyOf(counts, page, version));
}

/** A confirmation changes the totals: they are counted again at the next request (this process; the others see reading_tally_version move). */
export function markTalliesStale(): void {
  state().stale = true;
}
