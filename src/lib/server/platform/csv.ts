/** CSV files people open in a spreadsheet (the audit export, the reading report): RFC 4180, formula-safe. */

/** First characters that make a spreadsheet evaluate a cell as a formula (OWASP CSV injection). */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * Whether a spreadsheet may run the cell as a formula: its first character is one of FORMULA_START,
 * or a compatibility form of one (full-width `＝ ＋ － ＠`, small `﹦ ﹢ ﹣ ﹫`), which spreadsheets in
 * East Asian locales read as the ASCII operator: the first character's NFKC form is checked too.
 */
function startsFormula(value: string): boolean {
  if (FORMULA_START.test(value)) return true;
  const first = value.codePointAt(0);
  return first !== undefined && first > 0x7f && FORMULA_START.test(String.fromCodePoint(first).normalize("NFKC"));
}

/**
 * One RFC 4180 field. A value a spreadsheet would run as a formula is prefixed with a single
 * quote and always quoted, so Excel, LibreOffice and Sheets show it as text.
 */
export function csvCell(value: string): string {
  const safe = startsFormula(value) ? `'${value}` : value;
  return safe !== value || /[",\n\r;]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** One line (with its CRLF) of the given cells. */
export function csvLine(cells: readonly string[], separator: CsvSeparator = ","): string {
  return cells.map(csvCell).join(separator) + "\r\n";
}

/** Field separators offered: "," (RFC 4180) and ";" (what Excel opens directly in pt-BR locales). */
export const CSV_SEPARATORS = [",", ";"] as const;
export type CsvSeparator = (typeof CSV_SEPARATORS)[number];

/** The separator a `sep` query parameter names (absent: ","), or null when it is not one offered. */
export function csvSeparatorOf(value: string | null | undefined): CsvSeparator | null {
  const separator = value ?? ",";
  return (CSV_SEPARATORS as readonly string[]).includes(separator) ? (separator as CsvSeparator) : null;
}

/** UTF-8 byte order mark so spreadsheets keep the accents. */
export const CSV_BOM = "\uFEFF";
