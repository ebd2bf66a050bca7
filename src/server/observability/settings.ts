/** Operational settings (logs, metrics, shutdown) read from the environment; all optional. */
import { MIN_METRICS_TOKEN_LENGTH, readSettings, settingProblem, type Settings } from "../../lib/settings.ts";
export interface ObservabilitySettings {
  /** Bearer token that opens `/metrics` on the main port; empty keeps `/metrics` closed (404). */
  metricsToken: string;
  /** Port of a separate metrics listener bound to 127.0.0.1; null for none. */
  metricsPort: number | null;
  /** How long `/readyz` answers 503 before the server stops accepting connections on SIGTERM. */
  shutdownDrainMs: number;
  /** SQLite: `/readyz` answers 503 while the database's file system has less free space than this. */
  readinessMinFreeBytes: number;
}

export { MIN_METRICS_TOKEN_LENGTH };
/** Room for a write-ahead log of a few thousand pages and its checkpoint into the database file. */
export const DEFAULT_READINESS_MIN_FREE_MB = 64;

export type SettingsResult = { ok: true; settings: ObservabilitySettings } | { ok: false; error: string };

function wholeNumber(value: string | undefined): number | null {
  return value === undefined || value.trim() === "" ? null : Number(value.trim());
}

/** Checks the variables with the schema's rules (src/lib/settings.ts); a bad value is refused with its Portuguese message. */
export function readObservabilitySettings(env: Settings = readSettings()): SettingsResult {
  const problem = (["METRICS_TOKEN", "METRICS_PORT", "SHUTDOWN_DRAIN_MS", "READINESS_MIN_FREE_MB"] as const)
    .map((name) => settingProblem(name, env[name]))
    .find((message) => message !== null);
  if (problem) return { ok: false, error: problem };
  const readinessMinFreeMb = wholeNumber(env.READINESS_MIN_FREE_MB) ?? DEFAULT_READINESS_MIN_FREE_MB;
  return {
    ok: true,
    settings: {
      metricsToken: env.METRICS_TOKEN?.trim() ?? "",
      metricsPort: wholeNumber(env.METRICS_PORT),
      shutdownDrainMs: wholeNumber(env.SHUTDOWN_DRAIN_MS) ?? 0,
      readinessMinFreeBytes: readinessMinFreeMb * 1024 * 1024,
    },
  };
}
