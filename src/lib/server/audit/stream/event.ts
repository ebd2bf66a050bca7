/**
 * What a streamed audit event carries (issue 45): the row as the audit page shows it (action,
 * actor, target, IP as stored, details), its chain id and hash plus the hash it chains onto (so a
 * SIEM copy can be checked against the chain: `npm run audit:verify -- --siem <file>`), the instance
 * and ISO times. Only what the audit row holds: rows never hold tokens, codes or passwords.
 */
import { AUDIT_RESULT_LABELS, auditActionLabel, type AuditResult } from "../../../audit/actions.ts";
import { auditUserLabel } from "../query.ts";
import type { StreamedRow } from "./state.ts";

export interface AuditEvent {
  /** The chain id: a receiver drops an id it already has (delivery is at least once). */
  id: number;
  type: "b1.audit";
  time: string;
  action: string;
  actionLabel: string;
  result: string;
  resultLabel: string;
  actor: { userId: string | null; email: string | null; name: string | null; label: string };
  target: string | null;
  ip: string | null;
  userAgent: string | null;
  /** The details as stored (parsed JSON; the raw text when it is not JSON). */
  details: unknown;
  /** The row's raw details text, exactly as hashed (for verification). */
  detailsText: string | null;
  createdAtMs: number;
  hash: string | null;
  prevHash: string;
  instance: string;
  sentAt: string;
}

/** Keys of details that name what an action was done to, in the order looked for. */
const TARGET_KEYS = ["target", "targetEmail", "targetUserId", "email", "role", "roleName", "path", "page", "group"] as const;

function parsedDetails(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function targetOf(details: unknown): string | null {
  if (!details || typeof details !== "object" || Array.isArray(details)) return null;
  for (const key of TARGET_KEYS) {
    if (!Object.hasOwn(details, key)) continue;
    const value = (details as Record<string, unknown>)[key];
    if (typeof value === "string" || typeof value === "number") return String(value);
  }
  return null;
}

/** The events of a batch, each carrying the hash of the one before (`prevHash` of the first comes from the database). */
export function toEvents(rows: readonly StreamedRow[], prevHash: string, instance: string, now = new Date()): AuditEvent[] {
  let previous = prevHash;
  const sentAt = now.toISOString();
  return rows.map((row) => {
    const details = parsedDetails(row.actionDetails);
    const event: AuditEvent = {
      id: row.id,
      type: "b1.audit",
      time: new Date(row.createdAt).toISOString(),
      action: row.actionType,
      actionLabel: auditActionLabel(row.actionType),
      result: row.result,
      resultLabel: AUDIT_RESULT_LABELS[row.result as AuditResult] ?? row.result,
      actor: { userId: row.userId, email: row.userEmail, name: row.userName, label: auditUserLabel(row) },
      target: targetOf(details),
      ip: row.ipAddress,
      userAgent: row.userAgent,
      details,
      detailsText: row.actionDetails,
      createdAtMs: row.createdAt,
      hash: row.hash,
      prevHash: previous,
      instance,
      sentAt,
    };
    previous = row.hash ?? previous;
    return event;
  });
}

/* ------------------------------ syslog (RFC 5424) ------------------------------ */

/** Facility 13 ("log audit", RFC 5424 table 1). */
const FACILITY_LOG_AUDIT = 13;
const SEVERITY: Record<string, number> = { success: 6, failure: 5, blocked: 4 };
/** SD-ID with the documentation enterprise number (RFC 5612): the portal has no IANA number of its own. */
export const SD_ID = "b1audit@32473";
const APP_NAME = "b1-method-hub";

/** An SD-PARAM value: `"`, `\` and `]` escaped (RFC 5424 §6.3.3). */
function sdValue(value: string | number | null): string {
  return String(value ?? "").replace(/["\\\]]/g, (c) => `\\${c}`);
}

/** PRINTUSASCII, at most `max` characters, `-` when empty (HOSTNAME, APP-NAME, PROCID, MSGID). */
function headerField(value: string, max: number): string {
  const clean = value.replace(/[^\x21-\x7e]/g, "").slice(0, max);
  return clean || "-";
}

/** One RFC 5424 message: the event's key fields as structured data, the whole event as JSON in MSG (UTF-8, with BOM). */
export function syslogMessage(event: AuditEvent, hostname: string, procId: string): string {
  const pri = FACILITY_LOG_AUDIT * 8 + (SEVERITY[event.result] ?? 5);
  const params: [string, string | number | null][] = [
    ["id", event.id],
    ["hash", event.hash],
    ["prevHash", event.prevHash],
    ["action", event.action],
    ["result", event.result],
    ["actor", event.actor.email ?? event.actor.label],
    ["target", event.target],
    ["ip", event.ip],
    ["instance", event.instance],
  ];
  const sd = `[${SD_ID} ${params.map(([key, value]) => `${key}="${sdValue(value)}"`).join(" ")}]`;
  const header = `<${pri}>1 ${event.time} ${headerField(hostname, 255)} ${APP_NAME} ${headerField(procId, 128)} ${headerField(event.action, 32)}`;
  return `${header} ${sd} \uFEFF${JSON.stringify(event)}`;
}

/** Octet-counted framing (RFC 6587 §3.4.1, RFC 5425 §4.3): `MSG-LEN SP SYSLOG-MSG`. */
export function octetCounted(message: string): Buffer {
  const body = Buffer.from(message, "utf8");
  return Buffer.concat([Buffer.from(`${body.length} `, "ascii"), body]);
}
