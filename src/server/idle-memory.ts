import v8 from "node:v8";
import vm from "node:vm";

/** Quiet time (no request but health probes) before the memory grown under load is given back. */
export const IDLE_COLLECT_AFTER_MS = 10_000;
export const IDLE_CHECK_EVERY_MS = 5_000;
/** Collected only when the resident memory grew at least this much since start or the last collection. */
export const IDLE_COLLECT_MIN_GROWTH_BYTES = 32 * 1024 * 1024;

export interface IdleCollectorOptions {
  idleMs: number;
  minGrowthBytes: number;
  residentBytes: () => number;
  collect: () => void;
  now: () => number;
}

/**
 * Gives the memory a burst of load left behind back to the system once the server is idle.
 *
 * After load, V8 keeps its heap's freed pages resident until its own memory reducer runs, which
 * came minutes later or not at all in the bench (`npm run bench -- --memory`: ~110 MB of heap kept,
 * RSS 1.6–1.8× the fresh process after 90 s idle); a last-resort collection, run once the server has
 * had no request for `idleMs`, returns them (about 0.1 s on a 200 MB heap, paid while idle).
 * Health probes do not count as activity: a balancer's checks neither trigger nor prevent it.
 */
export function createIdleCollector(options: IdleCollectorOptions) {
  let lastActivity = options.now();
  let activeSinceCollection = false;
  let baseline = options.residentBytes();

  return {
    /** A request (not a health probe) arrived. */
    touch(): void {
      lastActivity = options.now();
      activeSinceCollection = true;
    },
    /** Collects when idle long enough after activity that grew the memory; true when it did. */
    check(): boolean {
      if (!activeSinceCollection || options.now() - lastActivity < options.idleMs) return false;
      if (options.residentBytes() - baseline < options.minGrowthBytes) return false;
      options.collect();
      activeSinceCollection = false;
      baseline = options.residentBytes();
      return true;
    },
  };
}

/**
 * V8's last-resort full collection (the one it runs before giving up on an allocation: it also
 * releases the pooled pages), reached through `--expose-gc` for one new context only, so no `gc`
 * appears on the portal's global object.
 */
export function lastResortCollection(): () => void {
  v8.setFlagsFromString("--expose-gc");
  const gc = vm.runInNewContext("gc") as (options: { type: "major"; execution: "sync"; flavor: "last-resort" }) => void;
  v8.setFlagsFromString("--no-expose-gc");
  return () => gc({ type: "major", execution: "sync", flavor: "last-resort" });
}
