/** The weekly reminder's calendar: ISO weeks in the display time zone, sent from Monday 09:00 on. */

/** The hour (display time zone) from which Monday's digest goes out. */
export const DIGEST_HOUR = 9;

interface LocalDay {
  year: number;
  month: number;
  day: number;
  /** 1 = Monday … 7 = Sunday. */
  weekday: number;
  hour: number;
}

/** Formatters by time zone: building one loads the zone's rules (milliseconds); formatting with it, microseconds. */
const formats = new Map<string, Intl.DateTimeFormat>();

function formatFor(timeZone: string): Intl.DateTimeFormat {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone,
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      hourCycle: "h23",
      weekday: "short",
    });
    if (formats.size >= 64) formats.clear();
    formats.set(timeZone, format);
  }
  return format;
}

function localDay(ms: number, timeZone: string): LocalDay {
  const parts = Object.fromEntries(
    formatFor(timeZone)
      .formatToParts(new Date(ms))
      .map((part) => [part.type, part.value]),
  );
  const weekday = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"].indexOf(parts.weekday!) + 1;
  return { year: Number(parts.year), month: Number(parts.month), day: Number(parts.day), weekday, hour: Number(parts.hour) };
}

/** The ISO 8601 week (`2026-W48`) of the day `ms` falls on in `timeZone`. */
export function isoWeekOf(ms: number, timeZone: string): string {
  const { year, month, day, weekday } = localDay(ms, timeZone);
  // The week belongs to the year of its Thursday.
  const thursday = new Date(Date.UTC(year, month - 1, day + 4 - weekday));
  const weekYear = thursday.getUTCFullYear();
  const week = Math.ceil(((thursday.getTime() - Date.UTC(weekYear, 0, 1)) / 86_400_000 + 1) / 7);
  return `${weekYear}-W${String(week).padStart(2, "0")}`;
}

/** Whether this week's digest may go out at `ms`: from Monday DIGEST_HOUR:00 (display time zone) to the week's end. */
export function digestDue(ms: number, timeZone: string): boolean {
  const { weekday, hour } = localDay(ms, timeZone);
  return weekday > 1 || hour >= DIGEST_HOUR;
}
