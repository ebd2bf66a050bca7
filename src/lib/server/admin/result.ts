import type { AuditEntry } from "../audit/audit.ts";

/** The admin acting in the panel, as its audit rows record them. */
export type Actor = { userId: string } & Pick<AuditEntry, "ipAddress" | "userAgent">;

/** An admin operation's outcome: a value, or a Portuguese message with an HTTP status (and the form field it concerns). */
export type AdminResult<T = undefined> = { ok: true; value: T } | { ok: false; status: number; error: string; field?: string };

/** A refused admin operation. */
export const refuse = (status: number, error: string, field?: string) => ({ ok: false, status, error, field }) as const;

/** The JSON body of a refusal: the message, and under `fields` the field it belongs to (as validation errors are). */
export function refusalBody(result: { error: string; field?: string }) {
  return result.field ? { error: result.error, fields: { [result.field]: result.error } } : { error: result.error };
}
