import fs from "node:fs";
import os from "node:os";
import type Database from "better-sqlite3";
import { sql } from "drizzle-orm";
import { sqliteClient, type Db } from "./db.ts";

/**
 * A number that moves whenever a writer may have changed sessions, users, roles or permissions:
 * synchronous on SQLite, a promise on PostgreSQL. The gate's session cache is kept until it moves.
 *
 * SQLite in WAL mode (the portal's): the WAL-index header at the start of `<database>-shm` (SQLite's
 * file-format document "walformat": two 48-byte copies, the first at offset 0). Every commit, by this
 * connection, another one in this process or another process (the CLI), rewrites it — mxFrame grows,
 * iChange and the checksum move, and a WAL restart after a checkpoint gives new salts — before the
 * commit is visible to any reader, since readers find the commit through that very header. One
 * 48-byte read per call (a `pread`, ~0.8 µs) where `PRAGMA data_version` opened and closed a read
 * transaction (~2 µs with its locks). A torn read (a writer mid-update) only looks like a change.
 *
 * Elsewhere (an in-memory database, another journal mode, no `-shm` file): `PRAGMA data_version`
 * (another connection committed) and `total_changes()` (this connection wrote), as before.
 *
 * PostgreSQL: the sum of the `cache_version` rows that statement triggers bump on those tables,
 * whichever instance wrote: each writer bumps the row (of 32) its transaction id picks, so writers
 * do not wait for each other's commit on one row; every row only grows, so the sum moves exactly
 * when a commit becomes visible (one read of a one-page table).
 */
export function changeCounter(db: Db): () => number | Promise<number> {
  const sqlite = sqliteClient(db);
  if (sqlite) return walIndexCounter(sqlite) ?? pragmaCounter(sqlite);
  const read = db
    .select({ version: sql<number>`coalesce(sum(version), 0)::bigint`.mapWith(Number) })
    .from(sql`cache_version`)
    // Unnamed, like the session lookup: PgBouncer in transaction pooling moves clients between server connections.
    .prepare("");
  return async () => (await read.execute())[0]?.version ?? 0;
}

/**
 * The counter for requests whose answer nobody waits for (the search beacon: `sendBeacon` never reads
 * it). On PostgreSQL the calls made within `delayMs` of the first share one read, started once that
 * time has passed: after every one of them arrived, so each still sees every commit visible when it
 * arrived, as a read of its own would. Up to 200 beacons a second made as many round trips, each
 * waking a database process on the cores that serve the pages. SQLite's read is synchronous (~1 µs).
 */
export function sharedChangeCounter(db: Db, delayMs: number): () => number | Promise<number> {
  const counter = changeCounter(db);
  return sqliteClient(db) ? counter : readAfterDelay(counter as () => Promise<number>, delayMs);
}

/**
 * One call of `read` for all the calls made within `delayMs` of the first, made once that time has
 * passed. A call after the read started waits for the next one: a read already under way may have
 * been answered before that call's request arrived.
 */
export function readAfterDelay<T>(read: () => Promise<T>, delayMs: number): () => Promise<T> {
  let gathering: Promise<T> | null = null;
  return () =>
    (gathering ??= new Promise<T>((resolve, reject) => {
      setTimeout(() => {
        gathering = null;
        Promise.resolve().then(read).then(resolve, reject);
      }, delayMs);
    }));
}

/** The first copy of the WAL-index header: iVersion, iChange, isInit, mxFrame, nPage, checksums, salts. */
export const WAL_INDEX_HEADER_BYTES = 48;
/** The WAL-index format this reader knows (SQLite's WALINDEX_MAX_VERSION since 3.7.0, in native byte order). */
export const WAL_INDEX_VERSION = 3007000;

/**
 * True when `header` is the WAL-index header this reader knows: the version SQLite writes, initialised
 * (isInit, byte 12). A SQLite that changed the format fails this and the
 * counter falls back to `PRAGMA data_version`, the public way (tests/unit/platform/private-internals.test.ts
 * says so loudly before an upgrade ships).
 */
export function knownWalIndexHeader(header: Buffer): boolean {
  const version = os.endianness() === "LE" ? header.readUInt32LE(0) : header.readUInt32BE(0);
  return version === WAL_INDEX_VERSION && header[12] === 1;
}

/**
 * `-shm` files read here, one descriptor per file for the life of the process, never closed:
 * closing any descriptor of a file drops every POSIX lock this process holds on it, and SQLite
 * keeps its WAL read locks on this very file (its own connections, the worker threads' too).
 * A file replaced under the same name (a test's fresh database) gets a descriptor of its own.
 */
const shmFiles = new Map<string, { fd: number; dev: number; ino: number }>();

function openShm(file: string): number | null {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch {
    return null;
  }
  const known = shmFiles.get(file);
  if (known && known.dev === stat.dev && known.ino === stat.ino) return known.fd;
  const fd = fs.openSync(file, "r");
  const opened = fs.fstatSync(fd);
  shmFiles.set(file, { fd, dev: opened.dev, ino: opened.ino });
  return fd;
}

/** The counter read from the `-shm` file, or null when this database has none (not WAL, in memory). */
function walIndexCounter(sqlite: Database.Database): (() => number) | null {
  if (sqlite.memory || String(sqlite.pragma("journal_mode", { simple: true })).toLowerCase() !== "wal") return null;
  const main = (sqlite.pragma("database_list") as { name: string; file: string }[]).find((entry) => entry.name === "main");
  if (!main?.file) return null;
  // A read makes SQLite create and fill the -shm file if this connection has not read yet.
  sqlite.prepare("select 1 from sqlite_master limit 1").get();
  const fd = openShm(`${main.file}-shm`);
  if (fd === null) return null;
  const header = Buffer.alloc(WAL_INDEX_HEADER_BYTES);
  if (fs.readSync(fd, header, 0, WAL_INDEX_HEADER_BYTES, 0) !== WAL_INDEX_HEADER_BYTES || !knownWalIndexHeader(header)) return null;
  let seen = Buffer.alloc(WAL_INDEX_HEADER_BYTES);
  let read = Buffer.alloc(WAL_INDEX_HEADER_BYTES);
  let version = 0;
  // The row triggers on sessions, users, roles and permissions bump (migration 0024): a commit elsewhere
  // (the Insights flush every 5 s) moves the header but not this row, and the cache stays.
  const row = cacheVersionRow(sqlite);
  let lastRow = -1;
  return () => {
    if (fs.readSync(fd, read, 0, WAL_INDEX_HEADER_BYTES, 0) !== WAL_INDEX_HEADER_BYTES || !read.equals(seen)) {
      [seen, read] = [read, seen];
      const current = row ? (row.get() as number | undefined) ?? -2 : -2;
      if (current === -2 || current !== lastRow) version++;
      lastRow = current;
    }
    return version;
  };
}

/** The statement reading `cache_version`'s row, or null on a database migrated before it existed. */
function cacheVersionRow(sqlite: Database.Database): Database.Statement | null {
  try {
    return sqlite.prepare("select version from cache_version where id = 1").pluck();
  } catch {
    return null;
  }
}

function pragmaCounter(sqlite: Database.Database): () => number {
  const dataVersion = sqlite.prepare("PRAGMA data_version").pluck();
  const ownChanges = sqlite.prepare("select total_changes()").pluck();
  let lastData = -1;
  let lastOwn = -1;
  let version = 0;
  return () => {
    const data = dataVersion.get() as number;
    const own = ownChanges.get() as number;
    if (data !== lastData || own !== lastOwn) {
      lastData = data;
      lastOwn = own;
      version++;
    }
    return version;
  };
}
