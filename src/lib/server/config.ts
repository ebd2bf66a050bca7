import path from "node:path";
import { readOidcSettings, type OidcSettings } from "./oidc-config.ts";

/** Runtime configuration from the environment; every value has a safe default. */
export interface Config {
  port: number;
  host: string;
  publicUrl: string;
  /** Cookies get `Secure` when the portal is published over https. */
  secureCookies: boolean;
  databasePath: string;
  allowedDomains: string[];
  allowedEmails: string[];
  smtpUrl: string;
  mailFrom: string;
  trustProxy: boolean;
  tzDisplay: string;
  outboxDir: string;
  /** Corporate sign-in over OpenID Connect; null when not configured. */
  oidc: OidcSettings | null;
  /** `AUTH_PASSWORD=false` hides the password form and refuses the password endpoints (the CLI still works). */
  passwordAuth: boolean;
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
  const publicUrl = (env.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/+$/, "");
  return {
    port,
    host,
    publicUrl,
    secureCookies: publicUrl.startsWith("https://"),
    databasePath,
    // Reserved example domains (RFC 2606) until the company's real ones are configured.
    allowedDomains: list(env.AUTH_ALLOWED_DOMAINS, ["b1.example.com", "b1.example.com.br", "semente.example.org"]),
    allowedEmails: list(env.AUTH_ALLOWED_EMAILS, ["parceiro@example.net"]),
    smtpUrl: env.SMTP_URL ?? "",
    mailFrom: env.MAIL_FROM ?? "B1 Method Hub <nao-responda@b1.example.com>",
    trustProxy: env.TRUST_PROXY === "1" || env.TRUST_PROXY === "true",
    tzDisplay: env.TZ_DISPLAY ?? "America/Sao_Paulo",
    outboxDir: path.join(path.dirname(databasePath), "outbox"),
    oidc: readOidcSettings(env),
    passwordAuth: !(env.AUTH_PASSWORD === "0" || env.AUTH_PASSWORD === "false"),
  };
}

let cached: Config | undefined;

/** The process-wide configuration, read once. */
export function config(): Config {
  cached ??= readConfig();
  return cached;
}
