import { describe, expect, it } from "vitest";
import { digestDue, isoWeekOf } from "../../../src/lib/server/reading/digest-week";

const SP = "America/Sao_Paulo";

describe("the weekly reminder's calendar", () => {
  it("names ISO 8601 weeks, across year ends, by the day in the display time zone", () => {
    expect(isoWeekOf(Date.parse("2026-11-27T12:00:00Z"), SP)).toBe("2026-W48");
    // 1 January 2021 was a Friday: still week 53 of 2020. 31 December 2024 (Tuesday) is week 1 of 2025.
    expect(isoWeekOf(Date.parse("2021-01-01T12:00:00Z"), SP)).toBe("2020-W53");
    expect(isoWeekOf(Date.parse("2024-12-31T12:00:00Z"), SP)).toBe("2025-W01");
    // Monday 02:00 UTC is still Sunday night in São Paulo: the previous week.
    expect(isoWeekOf(Date.parse("2026-11-30T02:00:00Z"), SP)).toBe("2026-W48");
    expect(isoWeekOf(Date.parse("2026-11-30T02:00:00Z"), "UTC")).toBe("2026-W49");
  });

  it("is due from Monday 09:00 in the display time zone until the week ends", () => {
    expect(digestDue(Date.parse("2026-11-30T11:59:00Z"), SP)).toBe(false); // Monday 08:59 in São Paulo
    expect(digestDue(Date.parse("2026-11-30T12:00:00Z"), SP)).toBe(true); // Monday 09:00
    expect(digestDue(Date.parse("2026-12-06T23:00:00Z"), SP)).toBe(true); // Sunday 20:00
  });
});
