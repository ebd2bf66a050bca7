import crypto from "node:crypto";
import fs from "node:fs";
import pg from "pg";

/** True in the PostgreSQL pass of `npm test` (scripts/test-all.mjs sets both variables). */
export const onPostgres: boolean = process.env.TEST_DATABASE === "postgres" && Boolean(process.env.TEST_PG_URL);

/** The cluster's address with another database name (same host, port and user). */
export function databaseUrl(clusterUrl: string, name: string): string {
  const url = new URL(clusterUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * The PgBouncer stage of `npm test` (TEST_PGBOUNCER_URL, scripts/test-all.mjs): a URL of the test
 * cluster given to the portal goes through the pooler instead (same database name and user);
 * any other URL is returned as is.
 */
export function throughPooler(url: string): string {
  const pooler = process.env.TEST_PGBOUNCER_URL;
  const cluster = process.env.TEST_PG_URL;
  if (!pooler || !cluster) return url;
  const through = new URL(url);
  if (through.host !== new URL(cluster).host) return url;
  through.host = new URL(pooler).host;
  return through.toString();
}

/** The reverse of throughPooler: the test cluster's own address (creating databases from a template needs it). */
export function directUrl(url: string): string {
  const pooler = process.env.TEST_PGBOUNCER_URL;
  const cluster = process.env.TEST_PG_URL;
  if (!pooler || !cluster) return url;
  const direct = new URL(url);
  if (direct.host !== new URL(pooler).host) return url;
  direct.host = new URL(cluster).host;
  return direct.toString();
}

/**
 * Creates a database on the cluster at `clusterUrl` and returns its URL (through PgBouncer in
 * its stage of `npm test`, see throughPooler): empty, or a copy of
 * `templateUrl` (a database this module created, to which nobody is connected).
 */
export async function createDatabase(clusterUrl: string, templateUrl?: string): Promise<string> {
  // Random hex only: the names are spliced into CREATE DATABASE, which takes no parameters.
  const name = `b1_${crypto.randomBytes(8).toString("hex")}`;
  const template = templateUrl === undefined ? undefined : new URL(templateUrl).pathname.slice(1);
  if (template !== undefined && !/^b1_[0-9a-f]{16}$/.test(template)) throw new Error(`modelo inesperado: ${template}`);
  const client = new pg.Client({ connectionString: directUrl(clusterUrl) });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE "${name}"${template ? ` TEMPLATE "${template}"` : ""}`);
  } finally {
    await client.end();
  }
  return throughPooler(databaseUrl(clusterUrl, name));
}

/**
 * A new, empty database of its own on the test cluster, or null when the tests run on SQLite:
 * every server a test starts gets one, so no test sees another's rows.
 */
export async function freshDatabaseUrl(): Promise<string | null> {
  if (!onPostgres) return null;
  return createDatabase(process.env.TEST_PG_URL!);
}

/** The postmaster and every process it started (backends, checkpointer, …), from /proc. */
function serverProcesses(postmasterPid: number): number[] {
  const children = fs
    .readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
        return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === postmasterPid;
      } catch {
        return false; // ended while listing
      }
    })
    .map(Number);
  return [postmasterPid, ...children];
}

/**
 * Freezes (SIGSTOP) or thaws (SIGCONT) a whole PostgreSQL server: a hung database, whose sockets
 * stay open and silent, unlike a stopped one that refuses connections.
 */
export function freezePostgres(postmasterPid: number, frozen: boolean): void {
  for (const pid of serverProcesses(postmasterPid)) process.kill(pid, frozen ? "SIGSTOP" : "SIGCONT");
}
