/** The tests' one-week clock for command-line runs (tests/support/week-clock.ts and clock-offset.mjs). */
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { oneWeekClock } from "../../support/week-clock";

const TZ = "America/Sao_Paulo";
// Monday 30/11/2026 00:00 in São Paulo (UTC−3) is 03:00 UTC: week 2026-W48 turns into 2026-W49.
const TURN = Date.parse("2026-11-30T03:00:00Z");
const MINUTE = 60_000;

describe("oneWeekClock", () => {
  it("keeps the real clock when the week does not turn within the span", () => {
    const clock = oneWeekClock(TZ, 30 * MINUTE, TURN - 31 * MINUTE);
    expect(clock).toMatchObject({ offsetMs: 0, week: "2026-W48", env: { B1_TEST_CLOCK_OFFSET_MS: "0" } });
    expect(oneWeekClock(TZ, 30 * MINUTE, TURN)).toMatchObject({ offsetMs: 0, week: "2026-W49" });
  });

  it("moves the scripts' clock back by the span when the week turns within it: every run stays in the week the file began in", () => {
    for (const before of [29 * MINUTE, MINUTE, 1]) {
      const clock = oneWeekClock(TZ, 30 * MINUTE, TURN - before);
      expect(clock).toMatchObject({ offsetMs: -30 * MINUTE, week: "2026-W48" });
    }
  });

  it("the preload moves Date.now and new Date() of the script it is loaded into, and nothing without its variable", () => {
    const clock = oneWeekClock(TZ, 30 * MINUTE, TURN - MINUTE);
    const script =
      "console.log(JSON.stringify([Date.now(), new Date().getTime(), Date.parse(Date()), new Date(5).getTime(), Date.UTC(2026, 0, 1), new Date() instanceof Date]))";
    const run = (env: Record<string, string>) => {
      const before = Date.now();
      const result = spawnSync(process.execPath, [...clock.nodeArgs, "-e", script], { env: { ...process.env, ...env }, encoding: "utf8" });
      expect(result.stderr).toBe("");
      return { before, after: Date.now(), values: JSON.parse(result.stdout) as (number | boolean)[] };
    };
    const moved = run(clock.env);
    // Date() has whole seconds only.
    for (const value of moved.values.slice(0, 3)) {
      expect(value).toBeGreaterThanOrEqual(moved.before - 30 * MINUTE - 1000);
      expect(value).toBeLessThanOrEqual(moved.after - 30 * MINUTE);
    }
    expect(moved.values.slice(3)).toEqual([5, Date.UTC(2026, 0, 1), true]);
    const real = run({ B1_TEST_CLOCK_OFFSET_MS: "" });
    expect(real.values[0]).toBeGreaterThanOrEqual(real.before);
    expect(real.values[0]).toBeLessThanOrEqual(real.after);
  });
});
