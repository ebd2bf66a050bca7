/**
 * Audit destinations set in the admin panel (issue 64), stored in their audit_destinations row: the
 * address, the signing secret sealed with AES-256-GCM under AUDIT_DESTINATION_KEY (node:crypto), the
 * previous secret during a rotation's grace period, and a version the delivery loops watch (deliverer.ts)
 * so every instance picks a change up at its next step, without a restart.
 */
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import type { AuditStreamSettings, AuditSyslogSettings, AuditWebhookSettings } from "../../config/audit-stream.ts";
import type { DestinationName, DestinationRow } from "./state.ts";

/** `whsec_` and 32 random bytes in base64, as the Standard Webhooks libraries read it. */
export function generateSecret(): { text: string; bytes: Buffer } {
  const bytes = randomBytes(32);
  return { text: `whsec_${bytes.toString("base64")}`, bytes };
}

/** `iv.tag.ciphertext` (base64url); the destination's name is the associated data (a sealed secret moved to another row does not open). */
export function sealSecret(key: Uint8Array, name: DestinationName, secret: Uint8Array): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  cipher.setAAD(Buffer.from(name));
  const sealed = Buffer.concat([cipher.update(secret), cipher.final()]);
  return [iv, cipher.getAuthTag(), sealed].map((part) => part.toString("base64url")).join(".");
}

/** The secret, or null when it does not open with this key (the key changed, or the text was altered). */
export function openSecret(key: Uint8Array, name: DestinationName, text: string): Buffer | null {
  const [iv, tag, sealed] = text.split(".").map((part) => Buffer.from(part, "base64url"));
  if (!iv || !tag || !sealed || iv.length !== 12 || tag.length !== 16) return null;
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, iv);
    decipher.setAAD(Buffer.from(name));
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(sealed), decipher.final()]);
  } catch {
    return null;
  }
}

/** The environment variable that, when set, owns a destination (the panel shows it read-only). */
export const ENV_VARIABLE: Record<DestinationName, string> = { webhook: "AUDIT_WEBHOOK_URL", syslog: "AUDIT_SYSLOG_URL" };

export function envConfigured(settings: AuditStreamSettings, name: DestinationName): boolean {
  return name === "webhook" ? settings.webhook !== null : settings.syslog !== null;
}

export const KEY_MISSING =
  "Não é possível guardar destinos pelo painel: a chave AUDIT_DESTINATION_KEY não está definida no servidor " +
  "(gere com: openssl rand -hex 32, defina-a no ambiente e reinicie; veja docs/implantacao.md)";

export const SECRET_UNREADABLE =
  "O segredo deste destino não abre com a chave AUDIT_DESTINATION_KEY atual (a chave mudou?): gere um novo segredo";

/** A panel webhook's settings for a sender, or a Portuguese reason it cannot be built. */
export function panelWebhookSettings(
  row: Pick<DestinationRow, "url" | "secretSealed" | "previousSecretSealed" | "previousUntil">,
  settings: AuditStreamSettings,
): AuditWebhookSettings | string {
  if (!settings.destinationKey) return KEY_MISSING;
  if (!row.url || !row.secretSealed) return "Destino sem endereço";
  const secret = openSecret(settings.destinationKey, "webhook", row.secretSealed);
  if (!secret) return SECRET_UNREADABLE;
  const previous = row.previousSecretSealed ? openSecret(settings.destinationKey, "webhook", row.previousSecretSealed) : null;
  return {
    url: row.url,
    secret: new Uint8Array(secret),
    previousSecret: previous && new Uint8Array(previous),
    previousUntil: row.previousUntil,
    batchSize: 100,
    timeoutMs: 10_000,
    guarded: !settings.allowPrivate,
  };
}

/** A panel syslog collector's settings (the system's certificate authorities for TLS). */
export function panelSyslogSettings(row: Pick<DestinationRow, "url">, settings: AuditStreamSettings): AuditSyslogSettings | string {
  const parsed = row.url ? URL.parse(row.url) : null;
  if (!parsed) return "Destino sem endereço";
  return {
    url: parsed.href,
    host: parsed.hostname.replace(/^\[(.*)\]$/, "$1"),
    port: Number(parsed.port),
    tls: parsed.protocol === "tls:",
    ca: null,
    batchSize: 200,
    guarded: !settings.allowPrivate,
  };
}
