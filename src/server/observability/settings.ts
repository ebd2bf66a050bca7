/** Operational settings (logs, metrics, shutdown) read from the environment; all optional. */
export interface ObservabilitySettings {
  /** Bearer token that opens `/metrics` on the main port; empty keeps `/metrics` closed (404). */
  metricsToken: string;
  /** Port of a separate metrics listener bound to 127.0.0.1; null for none. */
  metricsPort: number | null;
  /** How long `/readyz` answers 503 before the server stops accepting connections on SIGTERM. */
  shutdownDrainMs: number;
}

export const MIN_METRICS_TOKEN_LENGTH = 24;

export type SettingsResult = { ok: true; settings: ObservabilitySettings } | { ok: false; error: string };

function wholeNumber(value: string | undefined): number | null {
  if (value === undefined || value.trim() === "") return null;
  return /^\d+$/.test(value.trim()) ? Number(value.trim()) : Number.NaN;
}

/** Validates the variables; a bad value is refused with a Portuguese message instead of ignored. */
export function readObservabilitySettings(env: NodeJS.ProcessEnv = process.env): SettingsResult {
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
  return { ok: true, settings: { metricsToken, metricsPort, shutdownDrainMs } };
}
