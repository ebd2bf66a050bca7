/** Insights' calendar: days (`2026-11-27`) and ISO weeks (`2026-W48`) in the display time zone, computed once a minute. */
import { isoWeekOf } from "../reading/digest-week.ts";

export interface Period {
  day: string;
  week: string;
}

/** The day of `ms` in `timeZone` as `YYYY-MM-DD`. */
export function dayOf(ms: number, timeZone: string): string {
  // en-CA writes dates as YYYY-MM-DD.
  return new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(new Date(ms));
}

/** The day `days` before `day` (calendar arithmetic on the date itself, no time zone involved). */
export function daysBefore(day: string, days: number): string {
  const [year, month, date] = day.split("-").map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, date - days)).toISOString().slice(0, 10);
}

/**
 * The current day and week, recomputed when the minute changes: Intl formatting costs microseconds,
 * too much for every page served, and a day never ends mid-minute in any time zone.
 */
export function createClock(timeZone: string, now: () => number = Date.now): () => Period {
  let minute = -1;
  let period: Period = { day: "", week: "" };
  return () => {
    const ms = now();
    const current = Math.floor(ms / 60_000);
    if (current !== minute) {
      minute = current;
      period = { day: dayOf(ms, timeZone), week: isoWeekOf(ms, timeZone) };
    }
    return period;
  };
}
