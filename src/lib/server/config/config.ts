/**
 * Configuration: the environment read once into typed settings, with safe defaults and a Portuguese
 * refusal at start for a value that cannot work (OIDC and two-factor settings in their own files).
 * It sits below data/, which needs it to connect, and imports no domain.
 */
import path from "node:path";
import { engineOf } from "../../../../db/schema/index.ts";
import { readOidcSettings, type OidcSettings } from "./oidc.ts";
import { readTwoFactorSettings, type TwoFactorSettings } from "./two-factor.ts";
import { readScimSettings, type ScimSettings } from "./scim.ts";
import { readAuditStreamSettings, type AuditStreamSettings } from "./audit-stream.ts";
import { key32, readSettings, settingProblem, validateSettings, type SettingName, type Settings } from "../../settings.ts";

/** Runtime configuration from the environment; every value has a safe default (the allow-list: empty). */
export interface Config {
  port: number;
  host: string;
  /** Where people open the portal (e-mail links, the start-up line): PUBLIC_URL, else derived from HOST and PORT. */
  publicUrl: string;
  /** Origins the CSRF check accepts: PUBLIC_URL's alone, or without it the loopback spellings that reach HOST:PORT. */
  acceptedOrigins: readonly string[];
  /** Cookies get `Secure` when the portal is published over https. */
  secureCookies: boolean;
  databasePath: string;
  /** What the portal connects to: `DATABASE_URL` when it is a postgres:// address, else `databasePath`. */
  databaseUrl: string;
  allowedDomains: string[];
  allowedEmails: string[];
  smtpUrl: string;
  mailFrom: string;
  trustProxy: boolean;
  tzDisplay: string;
  outboxDir: string;
  /** Whole-request limit (headers and body) before the server answers 408 and closes. */
  requestTimeoutMs: number;
  /** A request body that sends nothing for this long is cut. */
  bodyIdleTimeoutMs: number;
  /** Absolute session lifetime, on top of the sliding inactivity expiry. */
  sessionMaxLifetimeMs: number;
  /** Audit rows older than this many days are pruned; null keeps everything. */
  auditRetentionDays: number | null;
  auditRetentionIntervalMs: number;
  /** Corporate sign-in over OpenID Connect; null when not configured. */
  oidc: OidcSettings | null;
  /** `AUTH_PASSWORD=false` hides the password form and refuses the password endpoints (the CLI still works). */
  passwordAuth: boolean;
  /** How long SIGTERM waits for in-flight requests before closing what is left. */
  shutdownTimeoutMs: number;
  /** TOTP second factor: its encryption key and the roles that must use it. */
  twoFactor: TwoFactorSettings;
  /** `AUDIT_IP_MASK=true`: audit rows keep IPv4 /24 and IPv6 /48 only (LGPD). */
  auditIpMask: boolean;
  /** AUDIT_CHAIN_KEY (32 bytes): HMAC key sealing the audit chain's head; null leaves it unsealed. */
  auditChainKey: Buffer | null;
  /** Provisioning by the company directory (SCIM 2.0); null when SCIM_TOKEN is unset. */
  scim: ScimSettings | null;
  /** `READING_DIGEST=false` stops the server's weekly required-reading reminder (`npm run reading:digest` still sends). */
  readingDigest: boolean;
  /** DOCS_URL: where the repository's files are read in a browser (the admin's 'Primeiros passos' links to sections); empty = no links. */
  docsUrl: string;
  /** BACKUP_EXTERNAL=true: backups are made outside `npm run db:backup` (pg_dump, snapshots), so 'Primeiros passos' does not ask for one. */
  backupExternal: boolean;
  /** Audit streaming to a SIEM (signed webhook, syslog); each destination null when unset. */
  auditStream: AuditStreamSettings;
  /** Insights (reads, searches, feedback) collected; INSIGHTS=false turns all collection off. */
  insights: boolean;
  /** Days of Insights aggregates kept (INSIGHTS_RETENTION_DAYS, default 400). */
  insightsRetentionDays: number;
  /**
   * INSIGHTS_KEY (32 bytes): the secret every Insights pseudonym (vote, searcher, reader) is derived
   * from, with a random salt per key and period kept in the database (insights/keys.ts): the
   * database alone cannot recompute a pseudonym. Null: a random key per process (a warning at start).
   */
  insightsKey: Buffer | null;
}

/** Throws the rule's Portuguese refusal (declared with the setting in src/lib/settings.ts). */
function check(problem: string | null): void {
  if (problem) throw new Error(problem);
}

function positiveInteger(name: SettingName, value: string | undefined): number | null {
  check(settingProblem(name, value));
  return value === undefined || value.trim() === "" ? null : Number(value);
}

/** A 32-byte key given as 64 hex characters or base64 (`openssl rand -hex 32`); empty means none. */
function key32Setting(name: SettingName, value: string | undefined): Buffer | null {
  check(settingProblem(name, value));
  const key = key32(value);
  return key === "inválida" ? null : key;
}

function positive(value: string | undefined, fallback: number): number {
  const number = Number(value);
  return value !== undefined && Number.isFinite(number) && number > 0 ? number : fallback;
}

function list(value: string | undefined): string[] {
  return (value ?? "")
    .split(",")
    .map((item) => item.trim().toLowerCase())
    .filter(Boolean);
}

/** Loopback spellings a browser can reach a server on, by listen address; any other HOST is one address. */
const LOOPBACK_SPELLINGS: Readonly<Record<string, readonly string[]>> = {
  "127.0.0.1": ["localhost", "127.0.0.1"],
  "0.0.0.0": ["localhost", "127.0.0.1"],
  "::1": ["localhost", "[::1]"],
  // A dual-stack socket, or a name that may resolve to either family.
  "::": ["localhost", "127.0.0.1", "[::1]"],
  localhost: ["localhost", "127.0.0.1", "[::1]"],
};

function readPublicAddress(env: Settings, host: string, port: number): { publicUrl: string; acceptedOrigins: string[] } {
  const configured = env.PUBLIC_URL?.trim();
  if (configured) {
    check(settingProblem("PUBLIC_URL", configured));
    const url = new URL(configured);
    return { publicUrl: url.href.replace(/\/+$/, ""), acceptedOrigins: [url.origin] };
  }
  const origin = (name: string) => new URL(`http://${name}:${port}`).origin;
  const spellings = LOOPBACK_SPELLINGS[host.toLowerCase()] ?? [host.includes(":") ? `[${host}]` : host];
  return { publicUrl: origin(spellings[0]!), acceptedOrigins: spellings.map(origin) };
}

/** `SMTP_URL`: empty (mails go to data/outbox) or an smtp:// or smtps:// address; anything else stops the start. */
function readSmtpUrl(env: Settings): string {
  check(settingProblem("SMTP_URL", env.SMTP_URL));
  return env.SMTP_URL?.trim() ?? "";
}

/** `DOCS_URL`: empty, or an http(s):// address of printable ASCII (at most 500 characters); anything else stops the start. */
function readDocsUrl(env: Settings): string {
  check(settingProblem("DOCS_URL", env.DOCS_URL));
  const configured = env.DOCS_URL?.trim() ?? "";
  return configured ? new URL(configured).href.replace(/\/+$/, "") : "";
}

/** A yes/no variable: true/1 or false/0/empty; anything else stops the start. */
function flag(name: SettingName, value: string | undefined): boolean {
  check(settingProblem(name, value));
  const text = (value ?? "").trim().toLowerCase();
  return text === "true" || text === "1";
}

export function readConfig(source: Readonly<Record<string, string | undefined>> = readSettings()): Config {
  // Every declared rule first, in the schema's order: the first value that cannot work stops the start.
  const env = validateSettings(source);
  const port = Number(env.PORT ?? 4321);
  const host = env.HOST ?? "127.0.0.1";
  const databasePath = path.resolve(env.DATABASE_PATH ?? "data/b1.sqlite");
  const { publicUrl, acceptedOrigins } = readPublicAddress(env, host, port);
  return {
    port,
    host,
    publicUrl,
    acceptedOrigins,
    secureCookies: publicUrl.startsWith("https://"),
    databasePath,
    databaseUrl: engineOf(env.DATABASE_URL) === "postgres" ? env.DATABASE_URL! : databasePath,
    // No default: an unconfigured portal lets nobody in (examples live in .env.example).
    allowedDomains: list(env.AUTH_ALLOWED_DOMAINS),
    allowedEmails: list(env.AUTH_ALLOWED_EMAILS),
    smtpUrl: readSmtpUrl(env),
    mailFrom: env.MAIL_FROM ?? "B1 Method Hub <nao-responda@b1.example.com>",
    trustProxy: env.TRUST_PROXY === "1" || env.TRUST_PROXY === "true",
    tzDisplay: env.TZ_DISPLAY ?? "America/Sao_Paulo",
    outboxDir: path.join(path.dirname(databasePath), "outbox"),
    requestTimeoutMs: positive(env.REQUEST_TIMEOUT_MS, 30_000),
    bodyIdleTimeoutMs: positive(env.BODY_IDLE_TIMEOUT_MS, 10_000),
    sessionMaxLifetimeMs: positive(env.SESSION_MAX_LIFETIME_DAYS, 30) * 24 * 60 * 60 * 1000,
    auditRetentionDays: positiveInteger("AUDIT_RETENTION_DAYS", env.AUDIT_RETENTION_DAYS),
    auditRetentionIntervalMs: positiveInteger("AUDIT_RETENTION_INTERVAL_MS", env.AUDIT_RETENTION_INTERVAL_MS) ?? 60 * 60 * 1000,
    oidc: readOidcSettings(env),
    passwordAuth: !(env.AUTH_PASSWORD === "0" || env.AUTH_PASSWORD === "false"),
    shutdownTimeoutMs: positiveInteger("SHUTDOWN_TIMEOUT_MS", env.SHUTDOWN_TIMEOUT_MS) ?? 30_000,
    twoFactor: readTwoFactorSettings(env),
    auditIpMask: env.AUDIT_IP_MASK === "1" || env.AUDIT_IP_MASK === "true",
    auditChainKey: key32Setting("AUDIT_CHAIN_KEY", env.AUDIT_CHAIN_KEY),
    scim: readScimSettings(env),
    readingDigest: !["0", "false", "off"].includes((env.READING_DIGEST ?? "").trim().toLowerCase()),
    docsUrl: readDocsUrl(env),
    backupExternal: flag("BACKUP_EXTERNAL", env.BACKUP_EXTERNAL),
    auditStream: readAuditStreamSettings(env),
    insights: !["0", "false", "off"].includes((env.INSIGHTS ?? "").trim().toLowerCase()),
    insightsRetentionDays: positiveInteger("INSIGHTS_RETENTION_DAYS", env.INSIGHTS_RETENTION_DAYS) ?? 400,
    insightsKey: key32Setting("INSIGHTS_KEY", env.INSIGHTS_KEY),
  };
}

let cached: Config | undefined;

/** The process-wide configuration, read once. */
export function config(): Config {
  cached ??= readConfig();
  return cached;
}
