/**
 * Audit streaming settings (issue 45): a signed webhook and/or a syslog collector that receive every
 * audit row. Read once at start; a value that cannot work stops the start with a Portuguese line.
 */
import fs from "node:fs";
import { settingProblem, type SettingName, type Settings } from "../../settings.ts";

export interface AuditWebhookSettings {
  url: string;
  /** The HMAC key (Standard Webhooks): `whsec_<base64>` decoded, else the text's bytes; ≥ 32 bytes. */
  secret: Uint8Array;
  /** Events per request. */
  batchSize: number;
  /** A request that has not answered after this long is given up and retried. */
  timeoutMs: number;
  /** The secret before a rotation in the panel: it signs too (a second signature) until `previousUntil` (ms). */
  previousSecret?: Uint8Array | null;
  previousUntil?: number | null;
  /** A panel destination: every address it resolves to is checked at each connection (guard.ts). */
  guarded?: boolean;
}

export interface AuditSyslogSettings {
  url: string;
  host: string;
  port: number;
  tls: boolean;
  /** PEM of the company's CA (AUDIT_SYSLOG_CA), or null for the system's. */
  ca: Buffer | null;
  batchSize: number;
  /** A panel destination: every address it resolves to is checked at each connection (guard.ts). */
  guarded?: boolean;
}

export interface AuditStreamSettings {
  webhook: AuditWebhookSettings | null;
  syslog: AuditSyslogSettings | null;
  /** How long a delivering instance holds a destination without renewing: another takes over after it. */
  leaseMs: number;
  /** How often an idle destination looks for new rows. */
  pollMs: number;
  /** The first retry's wait; each next one doubles (with jitter), up to a minute. */
  backoffMs: number;
  /**
   * AUDIT_DESTINATION_KEY (32 bytes): seals the signing secrets of destinations set in the admin panel
   * (issue 64, AES-256-GCM); null: the panel refuses to store a destination.
   */
  destinationKey: Uint8Array | null;
  /** AUDIT_DESTINATIONS_ALLOW_PRIVATE=true: a panel destination may be on loopback, link-local or a private range. */
  allowPrivate: boolean;
}

const MIN_SECRET_BYTES = 32;

function integerIn(name: SettingName, value: string | undefined, fallback: number): number {
  const problem = settingProblem(name, value);
  if (problem) throw new Error(problem);
  const text = value?.trim() ?? "";
  return text ? Number(text) : fallback;
}

/** Printable ASCII only: a bidi or zero-width character in a host is never a real server's name. */
function printable(text: string): boolean {
  return /^[\x21-\x7e]+$/.test(text);
}

function readWebhook(env: Settings): AuditWebhookSettings | null {
  const url = env.AUDIT_WEBHOOK_URL?.trim() ?? "";
  if (!url) return null;
  const parsed = URL.parse(url);
  if (!printable(url) || !parsed || (parsed.protocol !== "http:" && parsed.protocol !== "https:") || !parsed.hostname)
    throw new Error("AUDIT_WEBHOOK_URL deve ser um endereço http:// ou https:// (por exemplo https://coletor.empresa.com/b1)");
  const text = env.AUDIT_WEBHOOK_SECRET?.trim() ?? "";
  const secret = text.startsWith("whsec_") ? Buffer.from(text.slice(6), "base64") : Buffer.from(text, "utf8");
  if (secret.length < MIN_SECRET_BYTES)
    throw new Error(
      "AUDIT_WEBHOOK_SECRET deve ter pelo menos 32 bytes (com AUDIT_WEBHOOK_URL); gere com: echo whsec_$(openssl rand -base64 32)",
    );
  return {
    url: parsed.href,
    secret: new Uint8Array(secret),
    batchSize: integerIn("AUDIT_WEBHOOK_BATCH", env.AUDIT_WEBHOOK_BATCH, 100),
    timeoutMs: integerIn("AUDIT_WEBHOOK_TIMEOUT_MS", env.AUDIT_WEBHOOK_TIMEOUT_MS, 10_000),
  };
}

function readSyslog(env: Settings): AuditSyslogSettings | null {
  const url = env.AUDIT_SYSLOG_URL?.trim() ?? "";
  if (!url) return null;
  const parsed = URL.parse(url);
  const port = Number(parsed?.port);
  if (!printable(url) || !parsed || (parsed.protocol !== "tcp:" && parsed.protocol !== "tls:") || !parsed.hostname || !port)
    throw new Error("AUDIT_SYSLOG_URL deve ser tcp://servidor:porta ou tls://servidor:porta (por exemplo tls://siem.empresa.com:6514)");
  const caPath = env.AUDIT_SYSLOG_CA?.trim() ?? "";
  let ca: Buffer | null = null;
  if (caPath) {
    try {
      ca = fs.readFileSync(caPath);
    } catch {
      throw new Error(`AUDIT_SYSLOG_CA: não foi possível ler o certificado da autoridade em "${caPath}"`);
    }
    if (!ca.toString("latin1").includes("-----BEGIN CERTIFICATE-----"))
      throw new Error(`AUDIT_SYSLOG_CA: "${caPath}" não contém um certificado PEM (-----BEGIN CERTIFICATE-----)`);
  }
  const host = parsed.hostname.replace(/^\[(.*)\]$/, "$1");
  return {
    url,
    host,
    port,
    tls: parsed.protocol === "tls:",
    ca,
    batchSize: integerIn("AUDIT_SYSLOG_BATCH", env.AUDIT_SYSLOG_BATCH, 200),
  };
}

export function readAuditStreamSettings(env: Settings): AuditStreamSettings {
  const webhook = readWebhook(env);
  // The holder renews the lease during a send and cuts the send if it cannot (deliverer.ts): a request may
  // take longer than the lease, and two instances still never send at once.
  const leaseMs = integerIn("AUDIT_STREAM_LEASE_MS", env.AUDIT_STREAM_LEASE_MS, 6_000);
  return {
    webhook,
    syslog: readSyslog(env),
    leaseMs,
    pollMs: integerIn("AUDIT_STREAM_POLL_MS", env.AUDIT_STREAM_POLL_MS, 250),
    backoffMs: integerIn("AUDIT_STREAM_BACKOFF_MS", env.AUDIT_STREAM_BACKOFF_MS, 500),
    destinationKey: readDestinationKey(env.AUDIT_DESTINATION_KEY),
    allowPrivate: readBoolean("AUDIT_DESTINATIONS_ALLOW_PRIVATE", env.AUDIT_DESTINATIONS_ALLOW_PRIVATE),
  };
}

function readDestinationKey(value: string | undefined): Uint8Array | null {
  const text = value?.trim() ?? "";
  if (!text) return null;
  const key = /^[0-9a-f]{64}$/i.test(text) ? Buffer.from(text, "hex") : Buffer.from(text, "base64");
  if (key.length !== 32)
    throw new Error("AUDIT_DESTINATION_KEY deve ter 32 bytes (64 caracteres hexadecimais ou base64); gere com: openssl rand -hex 32");
  return new Uint8Array(key);
}

function readBoolean(name: string, value: string | undefined): boolean {
  const text = value?.trim().toLowerCase() ?? "";
  if (text === "" || text === "false" || text === "0") return false;
  if (text === "true" || text === "1") return true;
  throw new Error(`${name} deve ser true ou false (recebido: "${value}")`);
}
