import { AUDIT_RESULT_LABELS, auditActionLabel } from "../../audit/actions.ts";
import { auditUserLabel, type AuditRow } from "./query.ts";
import { csvDateTimeFormatter } from "./csv-date-time.ts";

/** First characters that make a spreadsheet evaluate a cell as a formula (OWASP CSV injection). */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * One RFC 4180 field. A value a spreadsheet would run as a formula is prefixed with a single
 * quote and always quoted, so Excel, LibreOffice and Sheets show it as text.
 */
export function csvCell(value: string): string {
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return safe !== value || /[",\n\r;]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** Field separators offered: "," (RFC 4180) and ";" (what Excel opens directly in pt-BR locales). */
export const CSV_SEPARATORS = [",", ";"] as const;
export type CsvSeparator = (typeof CSV_SEPARATORS)[number];

const HEADER_CELLS = ["Data/Hora", "Usuário", "E-mail", "Ação", "Resultado", "Detalhes", "IP", "User-Agent"];

/** Header line (with its CRLF) using the given separator. */
export function auditCsvHeader(separator: CsvSeparator = ","): string {
  return HEADER_CELLS.join(separator) + "\r\n";
}

export const AUDIT_CSV_HEADER = auditCsvHeader(",");

/** UTF-8 byte order mark so spreadsheets keep the accents. */
export const CSV_BOM = "\uFEFF";

const dateTimeFormatters = new Map<string, (ms: number) => string>();

/** One CSV line (with its CRLF) for an audit row. */
export function auditCsvLine(row: AuditRow, timeZone: string, separator: CsvSeparator = ","): string {
  let formatDateTime = dateTimeFormatters.get(timeZone);
  if (!formatDateTime) dateTimeFormatters.set(timeZone, (formatDateTime = csvDateTimeFormatter(timeZone)));
  return (
    [
      formatDateTime(row.createdAt),
      auditUserLabel(row),
      row.userEmail ?? "",
      auditActionLabel(row.actionType),
      AUDIT_RESULT_LABELS[row.result],
      row.actionDetails ?? "",
      row.ipAddress ?? "",
      row.userAgent ?? "",
    ]
      .map(csvCell)
      .join(separator) + "\r\n"
  );
}

/** Whole CSV of the given rows (small exports and tests). */
export function auditLogsCsv(rows: readonly AuditRow[], timeZone: string): string {
  return CSV_BOM + AUDIT_CSV_HEADER + rows.map((row) => auditCsvLine(row, timeZone)).join("");
}
