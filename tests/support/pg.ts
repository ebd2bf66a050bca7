import crypto from "node:crypto";
import pg from "pg";

/** True in the PostgreSQL pass of `npm test` (scripts/test-all.mjs sets both variables). */
export const onPostgres: boolean = process.env.TEST_DATABASE === "postgres" && Boolean(process.env.TEST_PG_URL);

/** The cluster's address with another database name (same host, port and user). */
export function databaseUrl(clusterUrl: string, name: string): string {
  const url = new URL(clusterUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Creates an empty database on the cluster at `clusterUrl` and returns its URL. */
export async function createDatabase(clusterUrl: string): Promise<string> {
  // Random hex only: the name is spliced into CREATE DATABASE, which takes no parameters.
  const name = `b1_${crypto.randomBytes(8).toString("hex")}`;
  const client = new pg.Client({ connectionString: clusterUrl });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE "${name}"`);
  } finally {
    await client.end();
  }
  return databaseUrl(clusterUrl, name);
}

/**
 * A new, empty database of its own on the test cluster, or null when the tests run on SQLite:
 * every server a test starts gets one, so no test sees another's rows.
 */
export async function freshDatabaseUrl(): Promise<string | null> {
  if (!onPostgres) return null;
  return createDatabase(process.env.TEST_PG_URL!);
}
