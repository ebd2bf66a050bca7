import { TZDate } from "@date-fns/tz";

/** yyyy-mm-dd, optionally followed by Thh:mm[:ss[.mmm]] and an offset (Z or ±hh:mm). */
const DATE_BOUND = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?)?(Z|[+-]\d{2}:\d{2})?$/;

interface Parts {
  fields: [number, number, number, number, number, number, number];
  hasTime: boolean;
  offset: string | undefined;
}

function split(value: string): Parts | null {
  const match = DATE_BOUND.exec(value);
  if (!match) return null;
  const [, year, month, day, hour, minute, second, millis, offset] = match;
  const fields = [year, month, day, hour, minute, second, (millis ?? "0").padEnd(3, "0")].map((part) =>
    Number(part ?? 0),
  ) as Parts["fields"];
  // Round-trip through UTC to reject 2026-02-30 or 25:00.
  const [y, mo, d, h, mi, s] = fields;
  const check = new Date(Date.UTC(y, mo - 1, d, h, mi, s));
  const valid =
    check.getUTCFullYear() === y &&
    check.getUTCMonth() === mo - 1 &&
    check.getUTCDate() === d &&
    check.getUTCHours() === h &&
    check.getUTCMinutes() === mi;
  if (!valid || (offset && !hour)) return null;
  return { fields, hasTime: hour !== undefined, offset };
}

/** Whether `value` is a date or date-time bound that parseDateBound understands. */
export function isDateBound(value: string): boolean {
  return split(value) !== null;
}

/**
 * The UTC instant of a filter bound. A bare date covers the whole day in `timeZone` (its first
 * or last millisecond); a date-time without an offset is wall-clock time in `timeZone`.
 */
export function parseDateBound(value: string, timeZone: string, edge: "start" | "end"): number | undefined {
  const parts = split(value);
  if (!parts) return undefined;
  if (parts.offset) return Date.parse(value);
  const [y, mo, d, h, mi, s, ms] = parts.fields;
  if (!parts.hasTime && edge === "end") return new TZDate(y, mo - 1, d + 1, 0, 0, 0, 0, timeZone).getTime() - 1;
  return new TZDate(y, mo - 1, d, h, mi, s, ms, timeZone).getTime();
}
