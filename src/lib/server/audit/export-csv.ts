import { AUDIT_RESULT_LABELS, auditActionLabel } from "../../audit/actions.ts";
import { detailsReadable } from "../../audit/detail-fields.ts";
import { auditUserLabel, type AuditRow } from "./query.ts";
import { csvDateTimeFormatter } from "../platform/csv-date-time.ts";
import { CSV_BOM, csvLine, type CsvSeparator } from "../platform/csv.ts";

export { CSV_BOM, CSV_SEPARATORS, csvCell, type CsvSeparator } from "../platform/csv.ts";

// 'Detalhes' stays the stored JSON (machine-readable, same position as always); the readable one comes last.
const HEADER_CELLS = ["Data/Hora", "Usuário", "E-mail", "Ação", "Resultado", "Detalhes", "IP", "User-Agent", "Detalhes (legível)"];

/** Header line (with its CRLF) using the given separator. */
export function auditCsvHeader(separator: CsvSeparator = ","): string {
  return HEADER_CELLS.join(separator) + "\r\n";
}

export const AUDIT_CSV_HEADER = auditCsvHeader(",");

const dateTimeFormatters = new Map<string, (ms: number) => string>();

/** One CSV line (with its CRLF) for an audit row. */
export function auditCsvLine(row: AuditRow, timeZone: string, separator: CsvSeparator = ","): string {
  let formatDateTime = dateTimeFormatters.get(timeZone);
  if (!formatDateTime) dateTimeFormatters.set(timeZone, (formatDateTime = csvDateTimeFormatter(timeZone)));
  return csvLine(
    [
      formatDateTime(row.createdAt),
      auditUserLabel(row),
      row.userEmail ?? "",
      auditActionLabel(row.actionType),
      AUDIT_RESULT_LABELS[row.result],
      row.actionDetails ?? "",
      row.ipAddress ?? "",
      row.userAgent ?? "",
      detailsReadable(row.actionDetails),
    ],
    separator,
  );
}

/** Whole CSV of the given rows (small exports and tests). */
export function auditLogsCsv(rows: readonly AuditRow[], timeZone: string): string {
  return CSV_BOM + AUDIT_CSV_HEADER + rows.map((row) => auditCsvLine(row, timeZone)).join("");
}
