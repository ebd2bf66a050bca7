/** Each Insights table as CSV with the shared formula-safe writer (`,` or `;`); the same rows the page shows. */
import { COMMENT_STATUSES, reasonLabel } from "../../insights/feedback.ts";
import type { InsightsReport, InsightsTable } from "../../insights/report.ts";
import { CSV_BOM, csvLine, type CsvSeparator } from "../platform/csv.ts";

const statusName = (value: string) => COMMENT_STATUSES.find((status) => status.value === value)?.label ?? value;
const searchRows = (rows: InsightsReport["buscas"]) => rows.map((row) => [row.consulta, row.buscas, row.semResultado, row.aberturas]);
const SEARCH_HEADER = ["Busca", "Buscas", "Sem resultado", "Resultados abertos"];

/** Header and rows of `table`. */
export function tableRows(report: InsightsReport, table: InsightsTable): (string | number)[][] {
  switch (table) {
    case "paginas":
      return [
        [
          "Página",
          "Título",
          "Leituras",
          `Leitores distintos (${report.semanaCompleta})`,
          `Leitores distintos (${report.semanaAtual}, até hoje)`,
          "Ajudou: sim",
          "Ajudou: não",
        ],
        ...report.paginas.map((row) => [
          row.pagina,
          row.titulo,
          row.leituras,
          row.leitoresSemana,
          row.leitoresSemanaAtual,
          row.sim,
          row.nao,
        ]),
      ];
    case "serie":
      return [["Dia", "Leituras"], ...report.serie.map((row) => [row.dia, row.leituras])];
    case "leitores":
      return [["Semana", "Leitores distintos (estimativa)"], ...report.leitores.map((row) => [row.semana, row.leitores])];
    case "perfis":
      return [["Perfil", "Leituras"], ...report.perfis.map((row) => [row.rotulo, row.leituras])];
    case "comentarios":
      return [
        ["Dia", "Página", "Versão", "Ajudou", "Motivo", "Comentário", "Contato", "Situação"],
        ...report.comentarios.map((row) => [
          row.dia,
          row.pagina,
          row.versao,
          row.ajudou ? "Sim" : "Não",
          reasonLabel(row.motivo),
          row.comentario,
          row.contato ? `${row.contato.nome} <${row.contato.email}>` : "",
          statusName(row.status),
        ]),
      ];
    case "sem-leitura":
      return [
        ["Página", "Título", "Última leitura"],
        ...report.semLeitura.map((row) => [row.pagina, row.titulo, row.ultimaLeitura ?? "nunca"]),
      ];
    case "buscas":
      return [SEARCH_HEADER, ...searchRows(report.buscas)];
    case "sem-resultado":
      return [SEARCH_HEADER, ...searchRows(report.semResultado)];
    case "sem-abertura":
      return [SEARCH_HEADER, ...searchRows(report.semAbertura)];
  }
}

export function tableCsv(report: InsightsReport, table: InsightsTable, separator: CsvSeparator): string {
  return (
    CSV_BOM +
    tableRows(report, table)
      .map((row) => csvLine(row.map(String), separator))
      .join("")
  );
}
