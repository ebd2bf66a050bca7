/** Types of pg-cluster.mjs (plain JS so scripts/test-all.mjs can import it without tsx). */
export function findBinDir(): string | null;
export function freePort(): Promise<number>;
/** The kernel's ephemeral port range (Linux's default when unreadable). */
export function ephemeralPortRange(): { low: number; high: number };
/** The block of ports freePort draws from for a vitest worker id (undefined: any other process), within TEST_PORTS if set; null when none fits. */
export function portBlock(poolId: string | undefined): { start: number; end: number } | null;
export function startCluster(options?: { port?: number }): Promise<{
  url: string;
  port: number;
  binDir: string;
  /** Stops the server and removes its data. */
  stop: () => Promise<void>;
  /** Stops the server (fast shutdown), keeping its data and port for `resume`. */
  halt: () => Promise<void>;
  /** Starts a halted server again; resolves once it accepts connections. */
  resume: () => Promise<void>;
  /** The postmaster's process id (outage tests pause it and its backends). */
  serverPid: () => number;
}>;
