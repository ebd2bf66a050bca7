import path from "node:path";
import { pathToFileURL } from "node:url";
import { isoWeekOf } from "../../src/lib/server/reading/digest-week";

/**
 * One ISO week for every run of a command-line script in a test file. The weekly reminder's CLI takes its
 * week from the clock, and a file that runs it several times (a second run sends nothing more, a resend of
 * this week's failures) would see two weeks if the week turned meanwhile (Monday 00:00 in the display time
 * zone). Within `spanMs` of that turn, the scripts' clock goes back by `spanMs`, into the same week as the
 * rest of the file; otherwise it is the real clock. The scripts have no setting for this (an operator could
 * otherwise point a run at another week): the tests preload clock-offset.mjs into them.
 */
export interface WeekClock {
  /** Milliseconds added to the scripts' clock (0 or −spanMs). */
  offsetMs: number;
  /** The week every run of this file falls in. */
  week: string;
  /** Node arguments to put before the script's. */
  nodeArgs: string[];
  /** Environment for the script. */
  env: Record<string, string>;
}

export function oneWeekClock(timeZone: string, spanMs = 30 * 60_000, now = Date.now()): WeekClock {
  const offsetMs = isoWeekOf(now + spanMs, timeZone) === isoWeekOf(now, timeZone) ? 0 : -spanMs;
  return {
    offsetMs,
    week: isoWeekOf(now + offsetMs, timeZone),
    nodeArgs: ["--import", pathToFileURL(path.resolve("tests/support/clock-offset.mjs")).href],
    env: { B1_TEST_CLOCK_OFFSET_MS: String(offsetMs) },
  };
}
