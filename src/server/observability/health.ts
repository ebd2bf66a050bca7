import fs from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import Database from "better-sqlite3";
import { sql } from "drizzle-orm";
import { healthProbe } from "../../../db/schema/index.ts";
import type { Db } from "../../lib/server/data/db.ts";

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
    .catch(() => "banco de dados não responde");
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

/** Returns null when ready, or a one-line reason. */
export function createReadinessCheck(options: ReadinessOptions): () => Promise<string | null> {
  const expectedMigration = latestMigrationStamp(options.migrationsDir);
  const { database } = options;
  let cached: { at: number; reason: string | null } | undefined;
  let writes: { at: number; refused: boolean } | undefined;

  async function writeRefused(now: number): Promise<boolean> {
    // A refused write is tried again at every check, so readiness returns as soon as writes land.
    if (writes && !writes.refused && now - writes.at < WRITE_PROBE_INTERVAL_MS) return false;
    const outcome = database.engine === "sqlite" ? probeSqliteWrite(database.path) : await probePostgresWrite(database.db);
    writes = { at: now, refused: outcome === "busy" ? (writes?.refused ?? false) : outcome === "refused" };
    return writes.refused;
  }

  return async function checkReadiness(): Promise<string | null> {
    if (shuttingDown) return "encerrando";
    const now = Date.now();
    if (cached && now - cached.at < READINESS_CACHE_MS) return cached.reason;
    let reason = !options.pagesLoaded()
      ? "páginas não carregadas"
      : database.engine === "sqlite"
        ? probeDatabase(database.path, expectedMigration)
        : await probePostgres(database.db, expectedMigration);
    if (reason === null && database.engine === "sqlite" && diskAlmostFull(database.path, database.minFreeBytes)) {
      reason = "pouco espaço em disco";
    }
    if (reason === null && (await writeRefused(now))) reason = "banco de dados não aceita gravações";
    cached = { at: now, reason };
    return reason;
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
 */
export function createHealthResponder(checkReadiness: () => Promise<string | null>, warnings?: () => Promise<string[]>) {
  return async function respondToHealthProbe(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.setHeader("Allow", "GET, HEAD");
      return answer(req, res, 405, "método não permitido");
    }
    if (path === "/healthz") return answer(req, res, 200, "ok");
    const reason = await checkReadiness();
    // Details that warn without failing readiness (an audit destination far behind): one line each.
    const notes = warnings ? await warnings().catch(() => []) : [];
    const details = notes.map((note) => `\naviso: ${note}`).join("");
    answer(req, res, reason === null ? 200 : 503, (reason === null ? "pronto" : `não pronto: ${reason}`) + details);
  };
}
