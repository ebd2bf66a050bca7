import { formatDateTime } from "../../admin/labels.ts";

const HOUR_MS = 3_600_000;
const FORMATTED = /^(\d{2})\/(\d{2})\/(\d{4}) (\d{2}):(\d{2}):(\d{2})$/;
const pad = (n: number) => (n < 10 ? `0${n}` : String(n));

/** The zone's offset (ms) at `ms`, read back from the formatted text; null if the text is not dd/MM/yyyy HH:mm:ss. */
function offsetAt(ms: number, timeZone: string): number | null {
  const parts = FORMATTED.exec(formatDateTime(ms, timeZone));
  if (!parts) return null;
  const [day, month, year, hour, minute, second] = parts.slice(1).map(Number) as [number, number, number, number, number, number];
  return Date.UTC(year, month - 1, day, hour, minute, second) - Math.floor(ms / 1000) * 1000;
}

/**
 * formatDateTime for a long run of timestamps in time order (the CSV export): the zone's offset is
 * looked up once per UTC hour and the text built by hand, ~10× cheaper than Intl per row. An hour in
 * which the offset changes (or any unusual text) falls back to formatDateTime itself.
 */
export function csvDateTimeFormatter(timeZone: string): (ms: number) => string {
  let hour = NaN;
  let offset: number | null = null;
  return (ms) => {
    const bucket = Math.floor(ms / HOUR_MS);
    if (bucket !== hour) {
      hour = bucket;
      const start = offsetAt(bucket * HOUR_MS, timeZone);
      offset = start !== null && start === offsetAt(bucket * HOUR_MS + HOUR_MS - 1000, timeZone) ? start : null;
    }
    const local = offset === null ? null : new Date(ms + offset);
    if (!local || local.getUTCFullYear() < 1000 || local.getUTCFullYear() > 9999) return formatDateTime(ms, timeZone);
    return `${pad(local.getUTCDate())}/${pad(local.getUTCMonth() + 1)}/${local.getUTCFullYear()} ${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())}`;
  };
}
