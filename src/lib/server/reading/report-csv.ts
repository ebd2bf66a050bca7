/** The report's list of people as a CSV download: every row the filter matches, read in chunks that yield. */
import { roleLabel } from "../../admin/role-labels.ts";
import type { ReportPerson } from "../../reading/report.ts";
import type { Db } from "../data/db.ts";
import { csvDateTimeFormatter } from "../platform/csv-date-time.ts";
import { CSV_BOM, csvLine, type CsvSeparator } from "../platform/csv.ts";
import { readPeople, type PeopleQuery } from "./report.ts";

const CHUNK = 1000;
const HEADER = ["Página", "Título", "Versão", "Nome", "E-mail", "Perfis", "Situação", "Versão confirmada", "Confirmada em"];

/** One person's line; every cell goes through csvCell (a name like `=HYPERLINK(…)` stays text). */
export function reportCsvLine(
  query: PeopleQuery,
  person: ReportPerson,
  formatDateTime: (ms: number) => string,
  separator: CsvSeparator,
): string {
  return csvLine(
    [
      query.page.path,
      query.page.title,
      String(query.version),
      person.nome,
      person.email,
      person.perfis.map(roleLabel).join(", "),
      person.pendente ? "Pendente" : "Confirmada",
      person.confirmada === null ? "" : String(person.confirmada),
      person.confirmadaEm === null ? "" : formatDateTime(person.confirmadaEm),
    ],
    separator,
  );
}

/** The CSV as a stream: a chunk of CHUNK people per pull, so a long list never holds the event loop. */
export function streamReportCsv(db: Db, query: PeopleQuery, timeZone: string, separator: CsvSeparator): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const formatDateTime = csvDateTimeFormatter(timeZone);
  let after: string | undefined;
  let started = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let chunk = started ? "" : CSV_BOM + csvLine(HEADER, separator);
      started = true;
      const people = await readPeople(db, query, after, CHUNK);
      for (const person of people) chunk += reportCsvLine(query, person, formatDateTime, separator);
      if (chunk) controller.enqueue(encoder.encode(chunk));
      if (people.length < CHUNK) controller.close();
      else after = people.at(-1)!.email;
    },
  });
}
