/** Operational settings (logs, metrics, shutdown) read from the environment; all optional. */
import { readSettings, type Settings } from "../../lib/settings.ts";
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

export const MIN_METRICS_TOKEN_LENGTH = 24;
/** Room for a write-ahead log of a few thousand pages and its checkpoint into the database file. */
export const DEFAULT_READINESS_MIN_FREE_MB = 64;

export type SettingsResult = { ok: true; settings: ObservabilitySettings } | { ok: false; error: string };

function wholeNumber(value: string | undefined): number | null {
  if (value === undefined || value.trim() === "") return null;
  return /^\d+$/.test(value.trim()) ? Number(value.trim()) : Number.NaN;
}

/** Validates the variables; a bad value is refused with a Portuguese message instead of ignored. */
export function readObservabilitySettings(env: Settings = readSettings()): SettingsResult {
  const metricsToken = env.METRICS_TOKEN?.trim() ?? "";
  if (metricsToken && metricsToken.length < MIN_METRICS_TOKEN_LENGTH) {
    return {
      ok: false,
      error: `METRICS_TOKEN precisa de pelo menos ${MIN_METRICS_TOKEN_LENGTH} caracteres (use, por exemplo, openssl rand -hex 32).`,
    };
  }
  const metricsPort = wholeNumber(env.METRICS_PORT);
  if (metricsPort !== null && !(metricsPort >= 0 && metricsPort <= 65_535)) {
    return { ok: false, error: "METRICS_PORT deve ser um número de porta entre 0 e 65535." };
  }
  const shutdownDrainMs = wholeNumber(env.SHUTDOWN_DRAIN_MS) ?? 0;
  if (!(shutdownDrainMs >= 0 && shutdownDrainMs <= 300_000)) {
    return { ok: false, error: "SHUTDOWN_DRAIN_MS deve ser um número de milissegundos entre 0 e 300000." };
  }
  const readinessMinFreeMb = wholeNumber(env.READINESS_MIN_FREE_MB) ?? DEFAULT_READINESS_MIN_FREE_MB;
  if (!(readinessMinFreeMb >= 0 && readinessMinFreeMb <= 1_048_576)) {
    return { ok: false, error: "READINESS_MIN_FREE_MB deve ser um número de megabytes entre 0 e 1048576." };
  }
  return { ok: true, settings: { metricsToken, metricsPort, shutdownDrainMs, readinessMinFreeBytes: readinessMinFreeMb * 1024 * 1024 } };
}
