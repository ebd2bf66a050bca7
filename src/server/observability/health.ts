import fs from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import Database from "better-sqlite3";
import { sql } from "drizzle-orm";
import { healthProbe } from "../../../db/schema/index.ts";
import type { Db } from "../../lib/server/data/db.ts";
import { isDatabaseUnavailable } from "../../lib/server/data/faults.ts";

/** A readiness probe's database check waits at most this long for a lock. */
const DB_PROBE_TIMEOUT_MS = 250;
/** Answers are reused this long, so a flood of probes cannot become a flood of file opens. */
const READINESS_CACHE_MS = 1_000;
/** The write probe (one row rewritten) runs at most this often: a full disk or a read-only database shows within it. */
const WRITE_PROBE_INTERVAL_MS = 5_000;

/** A write probe's outcome; `busy` (a lock or a slow answer) says nothing either way. */
type WriteOutcome = "written" | "refused" | "busy";

let shuttingDown = false;

/** Called first on SIGTERM: `/readyz` turns 503 so the balancer drains this instance. */
export function markShuttingDown(): void {
  shuttingDown = true;
}

export function isShuttingDown(): boolean {
  return shuttingDown;
}

export interface ReadinessOptions {
  /**
   * SQLite: the file, probed with a fresh read-only connection, and the free space of its file
   * system against `minFreeBytes`; PostgreSQL: the pool (its disk is the database server's).
   */
  database: { engine: "sqlite"; path: string; minFreeBytes: number } | { engine: "postgres"; db: Db };
  migrationsDir: string;
  /** True once the prerendered pages are in memory. */
  pagesLoaded: () => boolean;
}

/** The newest migration the build ships (`when` of the journal's last entry). */
export function latestMigrationStamp(migrationsDir: string): number {
  const journal = JSON.parse(fs.readFileSync(path.join(migrationsDir, "meta", "_journal.json"), "utf8")) as {
    entries: { when: number }[];
  };
  return Math.max(...journal.entries.map((entry) => entry.when));
}

/**
 * Opens the database file afresh, read-only, and reads the migrations table: a deleted, replaced,
 * corrupt or locked file fails here even while the app's own connection still holds the old inode.
 */
function probeDatabase(databasePath: string, expectedMigration: number): string | null {
  let probe: Database.Database | undefined;
  try {
    probe = new Database(databasePath, { readonly: true, fileMustExist: true, timeout: DB_PROBE_TIMEOUT_MS });
    const row = probe.prepare("select max(created_at) as latest from __drizzle_migrations").get() as { latest: number | null };
    if (row.latest === null || row.latest < expectedMigration) return "migrações pendentes";
    return null;
  } catch {
    return "banco de dados não responde";
  } finally {
    probe?.close();
  }
}

/** The same question asked of PostgreSQL through the pool, given up after DB_PROBE_TIMEOUT_MS. */
async function probePostgres(db: Db, expectedMigration: number): Promise<string | null> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<string>((resolve) => (timer = setTimeout(() => resolve("banco de dados não responde"), DB_PROBE_TIMEOUT_MS)));
  const probe = db
    .execute<{ latest: number | null }>(sql`select max(created_at)::bigint as latest from drizzle.__drizzle_migrations`)
    .then(({ rows }) => {
      const latest = rows[0]?.latest ?? null;
      return latest === null || Number(latest) < expectedMigration ? "migrações pendentes" : null;
    })
    // A missing migrations table (a bad restore) is this build's problem with the schema, not an outage.
    .catch((error: unknown) => (isDatabaseUnavailable(error) ? "banco de dados não responde" : "migrações pendentes"));
  try {
    return await Promise.race([probe, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Whether the database's file system has less than `minFreeBytes` left for this process (statfs:
 * one system call). The probe row's rewrite below fits in pages the file already has, so a full disk
 * would not show there while every write that needs a new page fails.
 */
function diskAlmostFull(databasePath: string, minFreeBytes: number): boolean {
  if (minFreeBytes === 0) return false;
  try {
    const stats = fs.statfsSync(path.dirname(databasePath), { bigint: true });
    return stats.bavail * stats.bsize < BigInt(minFreeBytes);
  } catch {
    // A folder that cannot be read shows in the database probe.
    return false;
  }
}

/** Rewrites the probe row through a fresh connection that waits at most DB_PROBE_TIMEOUT_MS for the write lock. */
function probeSqliteWrite(databasePath: string): WriteOutcome {
  let probe: Database.Database | undefined;
  try {
    probe = new Database(databasePath, { fileMustExist: true, timeout: DB_PROBE_TIMEOUT_MS });
    probe
      .prepare("insert into health_probe (id, probed_at) values (1, ?) on conflict (id) do update set probed_at = excluded.probed_at")
      .run(Date.now());
    return "written";
  } catch (error) {
    return (error as { code?: string }).code === "SQLITE_BUSY" ? "busy" : "refused";
  } finally {
    probe?.close();
  }
}

/** The same write through the pool; an answer slower than DB_PROBE_TIMEOUT_MS is `busy`. */
async function probePostgresWrite(db: Db): Promise<WriteOutcome> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<WriteOutcome>((resolve) => (timer = setTimeout(() => resolve("busy"), DB_PROBE_TIMEOUT_MS)));
  const now = Date.now();
  const write = db
    .insert(healthProbe)
    .values({ id: 1, probedAt: now })
    .onConflictDoUpdate({ target: healthProbe.id, set: { probedAt: now } })
    .then((): WriteOutcome => "written")
    .catch((): WriteOutcome => "refused");
  try {
    return await Promise.race([write, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A readiness answer: `reason` takes the instance out of the balancer (null: ready); `shared` is a
 * fault of the shared PostgreSQL, said in the answer but taking nothing out — every instance sees
 * the same database, so taking them out would empty the balancer for a blip that each instance
 * answers better itself (503 with Retry-After, and back within a second of the database).
 */
export interface Readiness {
  reason: string | null;
  shared: string | null;
}

/** Checks readiness (answers reused for a second). */
export function createReadinessCheck(options: ReadinessOptions): () => Promise<Readiness> {
  const expectedMigration = latestMigrationStamp(options.migrationsDir);
  const { database } = options;
  let cached: { at: number; readiness: Readiness } | undefined;
  let writes: { at: number; refused: boolean } | undefined;

  async function writeRefused(now: number): Promise<boolean> {
    // A refused write is tried again at every check, so readiness returns as soon as writes land.
    if (writes && !writes.refused && now - writes.at < WRITE_PROBE_INTERVAL_MS) return false;
    const outcome = database.engine === "sqlite" ? probeSqliteWrite(database.path) : await probePostgresWrite(database.db);
    writes = { at: now, refused: outcome === "busy" ? (writes?.refused ?? false) : outcome === "refused" };
    return writes.refused;
  }

  async function check(now: number): Promise<Readiness> {
    if (!options.pagesLoaded()) return { reason: "páginas não carregadas", shared: null };
    if (database.engine === "sqlite") {
      // The file is this instance's own: any fault of it is.
      let reason = probeDatabase(database.path, expectedMigration);
      if (reason === null && diskAlmostFull(database.path, database.minFreeBytes)) reason = "pouco espaço em disco";
      if (reason === null && (await writeRefused(now))) reason = "banco de dados não aceita gravações";
      return { reason, shared: null };
    }
    const answer = await probePostgres(database.db, expectedMigration);
    // Migrations the build expects and the database lacks: this build's fault, not the database's.
    if (answer === "migrações pendentes") return { reason: answer, shared: null };
    if (answer !== null) return { reason: null, shared: answer };
    return { reason: null, shared: (await writeRefused(now)) ? "banco de dados não aceita gravações" : null };
  }

  return async function checkReadiness(): Promise<Readiness> {
    if (shuttingDown) return { reason: "encerrando", shared: null };
    const now = Date.now();
    if (cached && now - cached.at < READINESS_CACHE_MS) return cached.readiness;
    const readiness = await check(now);
    cached = { at: now, readiness };
    return readiness;
  };
}

function answer(req: IncomingMessage, res: ServerResponse, status: number, text: string): void {
  const body = `${text}\n`;
  res.writeHead(status, {
    "Content-Type": "text/plain; charset=utf-8",
    "Content-Length": String(Buffer.byteLength(body)),
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
  });
  res.end(req.method === "HEAD" ? undefined : body);
}

export const HEALTH_PATHS = new Set(["/healthz", "/readyz"]);

/**
 * Answers `/healthz` (the process answers) and `/readyz` (database readable and writable,
 * migrations, pages, not shutting down) before the gate: no cookie is read, nothing is audited or personalised.
 * A shared PostgreSQL that does not answer or write is said after "pronto" with a 200 (see Readiness).
 */
export function createHealthResponder(checkReadiness: () => Promise<Readiness>, warnings?: () => Promise<string[]>) {
  return async function respondToHealthProbe(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.setHeader("Allow", "GET, HEAD");
      return answer(req, res, 405, "método não permitido");
    }
    if (path === "/healthz") return answer(req, res, 200, "ok");
    const { reason, shared } = await checkReadiness();
    // Details that warn without failing readiness (an audit destination far behind): one line each.
    const notes = warnings ? await warnings().catch(() => []) : [];
    const details = notes.map((note) => `\naviso: ${note}`).join("");
    if (reason !== null) return answer(req, res, 503, `não pronto: ${reason}${details}`);
    answer(req, res, 200, (shared === null ? "pronto" : `pronto; ${shared}`) + details);
  };
}
