/** Insights' calendar: days (`2026-11-27`) and ISO weeks (`2026-W48`) in the display time zone, computed once a minute. */
import { isoWeekOf } from "../reading/digest-week.ts";

export interface Period {
  day: string;
  week: string;
}

/** Formatters by time zone: building one loads the zone's rules (milliseconds); formatting with it, microseconds. */
const dayFormats = new Map<string, Intl.DateTimeFormat>();

/** The day of `ms` in `timeZone` as `YYYY-MM-DD`. */
export function dayOf(ms: number, timeZone: string): string {
  let format = dayFormats.get(timeZone);
  if (!format) {
    // en-CA writes dates as YYYY-MM-DD. An unknown zone throws here, before anything is kept.
    format = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" });
    if (dayFormats.size >= 64) dayFormats.clear();
    dayFormats.set(timeZone, format);
  }
  return format.format(new Date(ms));
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
export function createClock(timeZone: string, now: () => number = Date.now): (at?: number) => Period {
  let minute = -1;
  let period: Period = { day: "", week: "" };
  /** The period of `at` (the caller's reading of `now`), or of now. */
  return (at) => {
    const ms = at ?? now();
    const current = Math.floor(ms / 60_000);
    if (current !== minute) {
      minute = current;
      period = { day: dayOf(ms, timeZone), week: isoWeekOf(ms, timeZone) };
    }
    return period;
  };
}

/** Days from 1970-01-01 (a Thursday) to a calendar day. */
function epochDay(day: string): number {
  const [year, month, date] = day.split("-").map(Number) as [number, number, number];
  return Date.UTC(year, month - 1, date) / 86_400_000;
}

/**
 * The week number of a calendar day as the weekly sums store it: weeks start on Monday, week 0 holds
 * 1970-01-01. The migration's triggers compute the same: (days since 1970-01-01 + 3) / 7, rounded down.
 */
export function weekNumberOf(day: string): number {
  return Math.floor((epochDay(day) + 3) / 7);
}

/**
 * A period of days from `since` to `until` cut for the weekly sums: the whole weeks inside it (null
 * when none) and their first and last day; the loose days before `firstDay` and after `lastDay` are
 * read day by day. Days after `until` count as loose days too, so the sums equal `day >= since`
 * (a day an instance with a clock running ahead wrote early is not lost).
 */
export interface PeriodCut {
  since: string;
  weeks: { first: number; last: number; firstDay: string; lastDay: string } | null;
}

export function cutPeriod(since: string, until: string): PeriodCut {
  const first = Math.ceil((epochDay(since) + 3) / 7);
  const last = Math.floor((epochDay(until) + 3 + 1) / 7) - 1;
  if (first > last) return { since, weeks: null };
  const dayOfNumber = (days: number) => new Date(days * 86_400_000).toISOString().slice(0, 10);
  return { since, weeks: { first, last, firstDay: dayOfNumber(first * 7 - 3), lastDay: dayOfNumber(last * 7 + 3) } };
}

/** How many days from `from` to `to` (negative when `to` comes first). */
export function daysBetween(from: string, to: string): number {
  return epochDay(to) - epochDay(from);
}
