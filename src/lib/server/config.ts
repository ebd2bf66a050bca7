import path from "node:path";

/** Runtime configuration from the environment; every value has a safe default. */
export interface Config {
  port: number;
  host: string;
  publicUrl: string;
  databasePath: string;
  allowedDomains: string[];
  allowedEmails: string[];
  smtpUrl: string;
  mailFrom: string;
  trustProxy: boolean;
  tzDisplay: string;
  outboxDir: string;
  /** Audit rows older than this many days are pruned; null keeps everything. */
  auditRetentionDays: number | null;
  auditRetentionIntervalMs: number;
  /** How long SIGTERM waits for in-flight requests before closing what is left. */
  shutdownTimeoutMs: number;
}

function positiveInteger(name: string, value: string | undefined): number | null {
  if (value === undefined || value.trim() === "") return null;
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1) throw new Error(`${name} deve ser um número inteiro ≥ 1 (recebido: "${value}")`);
  return number;
}

function list(value: string | undefined, fallback: string[]): string[] {
  if (value === undefined || value.trim() === "") return fallback;
  return value
    .split(",")
    .map((item) => item.trim().toLowerCase())
    .filter(Boolean);
}

export function readConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = Number(env.PORT ?? 4321);
  const host = env.HOST ?? "127.0.0.1";
  const databasePath = path.resolve(env.DATABASE_PATH ?? "data/b1.sqlite");
  return {
    port,
    host,
    publicUrl: (env.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/+$/, ""),
    databasePath,
    // Reserved example domains (RFC 2606) until the company's real ones are configured.
    allowedDomains: list(env.AUTH_ALLOWED_DOMAINS, ["b1.example.com", "b1.example.com.br", "semente.example.org"]),
    allowedEmails: list(env.AUTH_ALLOWED_EMAILS, ["parceiro@example.net"]),
    smtpUrl: env.SMTP_URL ?? "",
    mailFrom: env.MAIL_FROM ?? "B1 Method Hub <nao-responda@b1.example.com>",
    trustProxy: env.TRUST_PROXY === "1" || env.TRUST_PROXY === "true",
    tzDisplay: env.TZ_DISPLAY ?? "America/Sao_Paulo",
    outboxDir: path.join(path.dirname(databasePath), "outbox"),
    auditRetentionDays: positiveInteger("AUDIT_RETENTION_DAYS", env.AUDIT_RETENTION_DAYS),
    auditRetentionIntervalMs: positiveInteger("AUDIT_RETENTION_INTERVAL_MS", env.AUDIT_RETENTION_INTERVAL_MS) ?? 60 * 60 * 1000,
    shutdownTimeoutMs: positiveInteger("SHUTDOWN_TIMEOUT_MS", env.SHUTDOWN_TIMEOUT_MS) ?? 30_000,
  };
}

let cached: Config | undefined;

/** The process-wide configuration, read once. */
export function config(): Config {
  cached ??= readConfig();
  return cached;
}
