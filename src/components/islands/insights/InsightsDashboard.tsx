/**
 * /insights: reads per page over time (a chart and the same numbers in a table), distinct readers per
 * week, reads per role, 'ajudou' and comments with their status, pages not read in 30 days, and the
 * searches (top, without result, results never opened). The filter lives in the address; each table
 * has its CSV (`,` or `;`). Over 200 lines because every section reads the same report and filter.
 */
import { useCallback, useEffect, useState, type ReactNode } from "react";
import { ArrowDown, ArrowUp, ArrowUpDown, Download } from "lucide-react";
import { COMMENT_STATUSES, PERIODS, ROLE_FILTERS, reasonLabel, roleFilterLabel, statusLabel } from "../../../lib/insights/labels";
import type { InsightsReport, InsightsTable } from "../../../lib/insights/report";
import { sendJson } from "../../../lib/api-client";
import { ghostButton, inputClass } from "../admin/styles";
import InsightsChart from "./InsightsChart";

interface Filters {
  periodo: string;
  perfil: string;
  pagina: string;
}

function filtersFrom(search: string): Filters {
  const params = new URLSearchParams(search);
  return { periodo: params.get("periodo") ?? "30", perfil: params.get("perfil") ?? "*", pagina: params.get("pagina") ?? "" };
}

function queryOf(filters: Filters, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams();
  if (filters.periodo !== "30") params.set("periodo", filters.periodo);
  if (filters.perfil !== "*") params.set("perfil", filters.perfil);
  if (filters.pagina) params.set("pagina", filters.pagina);
  for (const [key, value] of Object.entries(extra)) params.set(key, value);
  return params.toString();
}

const cell = "px-3 py-2";
const numberCell = "px-3 py-2 tabular-nums text-right";

/** A cell: shown as it is, or shown one way and sorted by another (a percentage, a status menu). */
type Cell = string | number | { show: ReactNode; sort: string | number };

const sortKey = (value: Cell) => (typeof value === "object" ? value.sort : value);
const shown = (value: Cell): ReactNode =>
  typeof value === "object" ? value.show : typeof value === "number" ? value.toLocaleString("pt-BR") : value;

interface Sorting {
  column: number;
  direction: "ascending" | "descending";
}

/** Rows in the order asked: numbers by value, texts in Portuguese order; ties keep the report's order. */
function sortedRows(rows: Cell[][], sorting: Sorting | null): { row: Cell[]; index: number }[] {
  const indexed = rows.map((row, index) => ({ row, index }));
  if (!sorting) return indexed;
  const sign = sorting.direction === "ascending" ? 1 : -1;
  return indexed.sort((a, b) => {
    const [x, y] = [sortKey(a.row[sorting.column]!), sortKey(b.row[sorting.column]!)];
    const order = typeof x === "number" && typeof y === "number" ? x - y : String(x).localeCompare(String(y), "pt-BR", { numeric: true });
    return sign * order;
  });
}

function Table(props: { id: InsightsTable; caption: string; header: string[]; rows: Cell[][]; filters: Filters; empty: string }) {
  const csv = (sep: string) => `/api/insights/export.csv?${queryOf(props.filters, { tabela: props.id, sep })}`;
  const [sorting, setSorting] = useState<Sorting | null>(null);
  // Every column sorts: numbers start with the largest (which page confuses most), texts from A.
  const sortBy = (column: number) =>
    setSorting((current) => {
      if (current?.column === column) return { column, direction: current.direction === "ascending" ? "descending" : "ascending" };
      const numeric = props.rows.some((row) => typeof sortKey(row[column]!) === "number");
      return { column, direction: numeric ? "descending" : "ascending" };
    });
  return (
    <div className="mb-8">
      {/* A table wider than a phone scrolls sideways: the keyboard reaches the scroll through the region (axe: scrollable-region-focusable). */}
      <div
        className="relative overflow-x-auto rounded-lg border border-slate-200 focus-visible:outline-2 focus-visible:outline-emerald-700 dark:border-slate-700"
        role="region"
        aria-label={props.caption}
        tabIndex={0}
      >
        <table className="w-full text-left text-sm" data-tabela={props.id}>
          <caption className="px-3 py-2 text-left font-semibold">
            {props.caption}
            <span className="block text-xs font-normal text-slate-600 dark:text-slate-300">
              Clique no título de uma coluna para ordenar por ela.
            </span>
          </caption>
          <thead className="bg-slate-50 dark:bg-slate-800">
            <tr>
              {props.header.map((title, column) => {
                const direction = sorting?.column === column ? sorting.direction : undefined;
                const Arrow = direction === "ascending" ? ArrowUp : direction === "descending" ? ArrowDown : ArrowUpDown;
                return (
                  <th key={title} scope="col" className="px-1 py-1" aria-sort={direction}>
                    <button
                      type="button"
                      onClick={() => sortBy(column)}
                      className="inline-flex items-center gap-1 rounded px-2 py-1 text-left font-semibold hover:bg-slate-200 focus-visible:outline-2 focus-visible:outline-emerald-700 dark:hover:bg-slate-700"
                    >
                      {title}
                      <Arrow className="size-3.5 shrink-0" aria-hidden="true" />
                    </button>
                  </th>
                );
              })}
            </tr>
          </thead>
          <tbody>
            {props.rows.length === 0 ? (
              <tr>
                <td className={cell} colSpan={props.header.length}>
                  {props.empty}
                </td>
              </tr>
            ) : (
              sortedRows(props.rows, sorting).map(({ row, index }) => (
                <tr key={index} className="border-t border-slate-200 dark:border-slate-700">
                  {row.map((value, column) => (
                    <td key={column} className={typeof sortKey(value) === "number" ? numberCell : cell}>
                      {shown(value)}
                    </td>
                  ))}
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
      <div className="mt-2 flex flex-wrap gap-2 text-sm">
        <a className={ghostButton} href={csv(",")} download>
          <Download className="size-4" aria-hidden="true" /> CSV: {props.caption}
        </a>
        <a className={ghostButton} href={csv(";")} download>
          <Download className="size-4" aria-hidden="true" /> CSV para Excel (;): {props.caption}
        </a>
      </div>
    </div>
  );
}

function CommentStatus({ id, status }: { id: string; status: string }) {
  const [value, setValue] = useState(status);
  const [message, setMessage] = useState("");
  return (
    <label className="flex flex-col gap-1">
      <span className="sr-only">Situação do comentário</span>
      <select
        className={inputClass}
        value={value}
        onChange={async (event) => {
          const next = event.target.value;
          const answer = await sendJson("/api/insights/comentarios", { id, status: next }, "PATCH");
          if (answer.status === 200) {
            setValue(next);
            setMessage("Situação salva.");
          } else setMessage(answer.body.error ?? "Não foi possível salvar.");
        }}
      >
        {COMMENT_STATUSES.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      <span role="status" className="text-xs">
        {message}
      </span>
    </label>
  );
}

export default function InsightsDashboard() {
  const [filters, setFilters] = useState<Filters>(() => filtersFrom(window.location.search));
  const [report, setReport] = useState<InsightsReport | null>(null);
  const [status, setStatus] = useState("Carregando…");

  const load = useCallback(async (next: Filters) => {
    setStatus("Carregando…");
    const response = await fetch(`/api/insights?${queryOf(next)}`).catch(() => null);
    const body = response ? ((await response.json().catch(() => ({}))) as InsightsReport & { error?: string }) : null;
    if (!response?.ok || !body) {
      setStatus(body?.error ?? "Não foi possível carregar as métricas.");
      return;
    }
    setReport(body);
    setStatus("");
  }, []);

  useEffect(() => void load(filters), [filters, load]);

  const change = (key: keyof Filters, value: string) => {
    const next = { ...filters, [key]: value };
    window.history.replaceState(null, "", `${window.location.pathname}${queryOf(next) ? `?${queryOf(next)}` : ""}`);
    setFilters(next);
  };

  const selectedTitle = report?.paginas.find((page) => page.pagina === report.filtro.pagina)?.titulo ?? "";
  return (
    <div>
      <form
        className="mb-6 grid gap-3 rounded-xl border border-slate-200 p-4 sm:grid-cols-3 dark:border-slate-700"
        onSubmit={(event) => event.preventDefault()}
      >
        <label className="text-sm">
          <span className="mb-1 block font-medium">Período</span>
          <select className={inputClass} value={filters.periodo} onChange={(event) => change("periodo", event.target.value)}>
            {PERIODS.map((days) => (
              <option key={days} value={days}>
                Últimos {days} dias
              </option>
            ))}
          </select>
        </label>
        <label className="text-sm">
          <span className="mb-1 block font-medium">Perfil (leituras)</span>
          <select className={inputClass} value={filters.perfil} onChange={(event) => change("perfil", event.target.value)}>
            {ROLE_FILTERS.map((role) => (
              <option key={role} value={role}>
                {roleFilterLabel(role)}
              </option>
            ))}
          </select>
        </label>
        <label className="text-sm">
          <span className="mb-1 block font-medium">Página em detalhe</span>
          <select
            className={inputClass}
            value={filters.pagina || report?.filtro.pagina || ""}
            onChange={(event) => change("pagina", event.target.value)}
          >
            {(report?.paginas ?? []).map((page) => (
              <option key={page.pagina} value={page.pagina}>
                {page.titulo}
              </option>
            ))}
          </select>
        </label>
      </form>
      <p role="status" className="mb-3 min-h-6 text-sm">
        {status}
      </p>
      {report && (
        <>
          <p className="mb-6 text-sm text-slate-700 dark:text-slate-200">
            De {report.desde} a {report.ate} · leitores distintos são pessoas diferentes numa semana (segunda a domingo, estimativa): a
            semana passada ({report.semanaCompleta}) inteira e esta ({report.semanaAtual}) até hoje · buscas aparecem só depois de 3 pessoas
            diferentes.
          </p>
          <h2 className="mb-3 text-2xl font-semibold">Páginas</h2>
          <Table
            id="paginas"
            caption="Leituras por página"
            header={[
              "Página",
              "Leituras",
              `Leitores distintos: semana passada (${report.semanaCompleta})`,
              `Leitores distintos: esta semana (${report.semanaAtual}, até hoje)`,
              "Ajudou",
              "Não ajudou",
              "Taxa de 'ajudou'",
            ]}
            rows={report.paginas.map((page) => {
              const rate = page.sim + page.nao ? Math.round((100 * page.sim) / (page.sim + page.nao)) : -1;
              return [
                page.titulo,
                page.leituras,
                page.leitoresSemana,
                page.leitoresSemanaAtual,
                page.sim,
                page.nao,
                { show: rate < 0 ? "—" : `${rate}%`, sort: rate },
              ];
            })}
            filters={filters}
            empty="Nenhuma página."
          />
          <h2 className="mb-3 text-2xl font-semibold">{selectedTitle}: leituras ao longo do tempo</h2>
          <figure className="mb-2" aria-describedby="tabela-serie">
            <InsightsChart
              labels={report.serie.map((row) => row.dia)}
              values={report.serie.map((row) => row.leituras)}
              seriesLabel="Leituras por dia"
              xTitle="Dia (mês-dia)"
              yTitle="Leituras (páginas abertas)"
            />
            <figcaption className="text-sm text-slate-600 dark:text-slate-300">
              Leituras por dia (eixo horizontal: dia; vertical: leituras); os mesmos números estão na tabela abaixo.
            </figcaption>
          </figure>
          <div id="tabela-serie">
            <Table
              id="serie"
              caption="Leituras por dia"
              header={["Dia", "Leituras"]}
              rows={report.serie.map((row) => [row.dia, row.leituras])}
              filters={filters}
              empty="Sem leituras."
            />
          </div>
          <figure className="mb-2">
            <InsightsChart
              labels={report.leitores.map((row) => row.semana)}
              values={report.leitores.map((row) => row.leitores)}
              seriesLabel="Leitores distintos por semana"
              xTitle="Semana (ano-semana ISO)"
              yTitle="Pessoas diferentes (estimativa)"
            />
            <figcaption className="text-sm text-slate-600 dark:text-slate-300">
              Leitores distintos por semana (eixo horizontal: semana ISO; vertical: pessoas diferentes, estimativa); mesmos números na
              tabela.
            </figcaption>
          </figure>
          <Table
            id="leitores"
            caption="Leitores distintos por semana"
            header={["Semana", "Leitores distintos"]}
            rows={report.leitores.map((row) => [row.semana, row.leitores])}
            filters={filters}
            empty="Sem leitores no período."
          />
          <Table
            id="perfis"
            caption="Leituras por perfil"
            header={["Perfil", "Leituras"]}
            rows={report.perfis.map((row) => [row.rotulo, row.leituras])}
            filters={filters}
            empty="Sem leituras."
          />
          <h2 className="mb-3 text-2xl font-semibold">Comentários</h2>
          <Table
            id="comentarios"
            caption="Comentários de 'Esta página ajudou?'"
            header={["Dia", "Página", "Versão", "Ajudou", "Motivo", "Comentário", "Contato", "Situação"]}
            rows={report.comentarios.map((row) => [
              row.dia,
              row.titulo,
              row.versao,
              row.ajudou ? "Sim" : "Não",
              reasonLabel(row.motivo),
              row.comentario,
              row.contato ? `${row.contato.nome} (${row.contato.email})` : "Anônimo",
              { show: <CommentStatus key={row.id} id={row.id} status={row.status} />, sort: statusLabel(row.status) },
            ])}
            filters={filters}
            empty="Nenhum comentário no período."
          />
          <Table
            id="sem-leitura"
            caption="Páginas sem leitura em 30 dias"
            header={["Página", "Última leitura"]}
            rows={report.semLeitura.map((row) => [row.titulo, row.ultimaLeitura ?? "nunca"])}
            filters={filters}
            empty="Todas as páginas foram lidas nos últimos 30 dias."
          />
          <h2 className="mb-3 text-2xl font-semibold">Buscas</h2>
          {(
            [
              ["buscas", "Buscas mais frequentes", report.buscas],
              ["sem-resultado", "Buscas sem resultado", report.semResultado],
              ["sem-abertura", "Buscas cujos resultados ninguém abriu", report.semAbertura],
            ] as const
          ).map(([id, caption, rows]) => (
            <Table
              key={id}
              id={id}
              caption={caption}
              header={["Busca", "Buscas", "Sem resultado", "Resultados abertos"]}
              rows={rows.map((row) => [row.consulta, row.buscas, row.semResultado, row.aberturas])}
              filters={filters}
              empty="Nenhuma busca feita por 3 pessoas ou mais no período."
            />
          ))}
        </>
      )}
    </div>
  );
}
