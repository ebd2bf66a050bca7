/** Types of pgbouncer.mjs (plain JS so scripts/test-all.mjs can import it without tsx). */
export function findPgbouncer(): string | null;
export function pgbouncerConfig(options: {
  upstreamHost: string;
  upstreamPort: number;
  port: number;
  dir: string;
  poolSize?: number;
  maxClients?: number;
  maxDbConnections?: number;
  /** Server connections of all databases together (max_user_connections; default 100). */
  maxUserConnections?: number;
}): string;
export function startPgbouncer(
  upstreamUrl: string,
  options?: { port?: number; poolSize?: number; maxClients?: number; maxDbConnections?: number; maxUserConnections?: number },
): Promise<{
  /** `upstreamUrl` through the pooler. */
  url: string;
  port: number;
  /** Any URL of the same server, through the pooler. */
  rewrite: (url: string) => string;
  logFile: string;
  stop: () => Promise<void>;
}>;
