/** Types of pg-cluster.mjs (plain JS so scripts/test-all.mjs can import it without tsx). */
export function findBinDir(): string | null;
export function freePort(): Promise<number>;
export function startCluster(options?: {
  port?: number;
}): Promise<{ url: string; port: number; binDir: string; stop: () => Promise<void> }>;
