/**
 * Every CSV export (audit log, reading report, Insights) writes its cells through csvCell: a cell a
 * spreadsheet would run as a formula is quoted with a leading apostrophe, whether its first
 * character is the ASCII `=`, `+`, `-`, `@`, tab or CR or a form a spreadsheet (or NFKC) reads as
 * one of them: full-width `＝ ＋ － ＠` and the small forms `﹦ ﹢ ﹣ ﹫` (issue 62).
 */
import { describe, expect, it } from "vitest";
import { csvCell, csvLine } from "../../../src/lib/server/platform/csv";

describe("csvCell", () => {
  it("neutralises the ASCII formula starts", () => {
    for (const value of ["=1+1", "+55", "-2+3", "@SUM(1+1)", "\tcalc", "\rcalc"]) {
      expect(csvCell(value)).toBe(`"'${value}"`);
    }
  });

  it("neutralises the full-width and small forms of = + - @ like the ASCII ones", () => {
    for (const value of ["＝cmd|' /C calc'!A0", "＋55", "－2+3", "＠SUM(1+1)", "﹦1+1", "﹢1", "﹣1", "﹫SUM(1)"]) {
      expect(csvCell(value)).toBe(`"'${value}"`);
    }
    expect(csvLine(["ok", '＝HYPERLINK("http://evil.example")'], ";")).toBe(`ok;"'＝HYPERLINK(""http://evil.example"")"\r\n`);
  });

  it("leaves text alone, also when a formula character comes later or the cell starts with an astral character", () => {
    expect(csvCell("Ana Prado")).toBe("Ana Prado");
    expect(csvCell("a=b")).toBe("a=b");
    expect(csvCell("2026-12-06")).toBe("2026-12-06");
    expect(csvCell("😀=1")).toBe("😀=1");
    expect(csvCell("")).toBe("");
  });
});
