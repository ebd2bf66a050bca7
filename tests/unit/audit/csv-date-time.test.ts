import { describe, expect, it } from "vitest";
import { formatDateTime } from "../../../src/lib/admin/labels";
import { csvDateTimeFormatter } from "../../../src/lib/server/platform/csv-date-time";

// Zones with daylight saving (São Paulo until 2019, Lisbon), half-hour offsets (Kolkata, St. John's)
// and a half-hour daylight-saving shift (Lord Howe).
const ZONES = ["America/Sao_Paulo", "UTC", "Europe/Lisbon", "Asia/Kolkata", "America/St_Johns", "Australia/Lord_Howe"];

describe("the CSV export's date-time formatter", () => {
  it.each(ZONES)("writes exactly what formatDateTime writes in %s, across offset changes", (zone) => {
    const format = csvDateTimeFormatter(zone);
    const start = Date.UTC(2017, 0, 1);
    const end = Date.UTC(2027, 0, 1);
    // Every 1 h 7 min 13.731 s over ten years, newest first like the export (~78,000 instants).
    const differing: string[] = [];
    for (let ms = end; ms >= start; ms -= 4_033_731) {
      const expected = formatDateTime(ms, zone);
      if (format(ms) !== expected) differing.push(`${new Date(ms).toISOString()}: ${format(ms)} ≠ ${expected}`);
    }
    expect(differing.slice(0, 5)).toEqual([]);
  });

  it("is right second by second through São Paulo's 2018 daylight-saving start and 2019 end", () => {
    const format = csvDateTimeFormatter("America/Sao_Paulo");
    for (const moment of [Date.UTC(2018, 10, 4, 3), Date.UTC(2019, 1, 17, 2)]) {
      for (let ms = moment - 2 * 3_600_000; ms <= moment + 2 * 3_600_000; ms += 997) {
        expect(format(ms)).toBe(formatDateTime(ms, "America/Sao_Paulo"));
      }
    }
  });
});
