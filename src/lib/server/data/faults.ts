/**
 * Which failures mean "the database is away or cannot write right now" (the request gets a 503
 * and may be retried) rather than a fault in the portal (a 500): either engine, through drizzle's
 * wrapping (`cause`).
 */

/** better-sqlite3 codes: the file cannot be read or written (full, read-only, I/O error, locked too long, damaged). */
const SQLITE_UNAVAILABLE = /^SQLITE_(FULL|READONLY|IOERR|CANTOPEN|BUSY|LOCKED|CORRUPT|NOTADB|PROTOCOL|NOMEM)/;

/**
 * PostgreSQL SQLSTATEs: connection lost (08), out of disk, memory or connections (53), shut down or
 * starting (57P0x), statement timeout (57014), I/O error (58), a read-only server such as a replica
 * after a failover (25006).
 */
const POSTGRES_UNAVAILABLE = /^(08|53|57P0|57014|58|25006)/;

/** Network errors on the way to the server. */
const NETWORK_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "EHOSTUNREACH", "ENETUNREACH", "ENOTFOUND", "EAI_AGAIN"]);

/** node-postgres's own words for a lost, timed-out or closed connection (these carry no code). */
const DRIVER_MESSAGES =
  /^(Connection terminated|timeout exceeded when trying to connect|Query read timeout|Client has encountered a connection error|Client was closed|Cannot use a pool after calling end)|^The database connection is not open/;

function describesUnavailability(error: { code?: unknown; message?: unknown }): boolean {
  const code = typeof error.code === "string" ? error.code : "";
  if (SQLITE_UNAVAILABLE.test(code) || NETWORK_CODES.has(code)) return true;
  if (/^[0-9A-Z]{5}$/.test(code)) return POSTGRES_UNAVAILABLE.test(code);
  return typeof error.message === "string" && DRIVER_MESSAGES.test(error.message);
}

/** True when `error` (or what it wraps) says the database cannot be used right now. */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current && typeof current === "object" && depth < 5; depth++) {
    if (describesUnavailability(current as { code?: unknown; message?: unknown })) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
