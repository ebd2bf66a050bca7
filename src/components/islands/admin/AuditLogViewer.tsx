/**
 * /audit-logs: filters, the keyset-paged table and the CSV link over one shared filter state.
 * About 200 lines because the filter form, the table and the pager all read and write that state.
 */
import { useCallback, useEffect, useRef, useState, type FormEvent } from "react";
import { Download } from "lucide-react";
import { AUDIT_ACTION_LABELS, AUDIT_RESULT_LABELS, auditActionLabel, type AuditResult } from "../../../lib/audit/actions";
import { detailFields } from "../../../lib/audit/detail-fields";
import { accessDecisionNote, formatDateTime, prettyDetails, truncateDetails } from "../../../lib/admin/labels";
import { ghostButton, inputClass, primaryButton } from "./styles";
import { useHydrated } from "../ui/use-hydrated";

interface Row {
  id: number;
  createdAt: number;
  userLabel: string;
  userEmail: string | null;
  actionType: string;
  result: AuditResult;
  actionDetails: string | null;
  ipAddress: string | null;
}

interface Filters {
  action: string;
  result: string;
  user: string;
  from: string;
  to: string;
}

/** How long a filter waits for the typing to pause before it applies. */
const FILTER_DELAY_MS = 300;
const EMPTY: Filters = { action: "", result: "", user: "", from: "", to: "" };
const RESULT_CLASS: Record<AuditResult, string> = {
  success: "bg-green-100 text-green-800",
  failure: "bg-red-100 text-red-800",
  blocked: "bg-amber-100 text-amber-800",
};

function queryString(filters: Filters, cursor?: string): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) if (value) params.set(key, value);
  if (cursor) params.set("cursor", cursor);
  return params.toString();
}

/** Filters named in a query string (the page's address); unknown keys are ignored. */
function filtersFrom(search: string): Filters {
  const params = new URLSearchParams(search);
  const filters = { ...EMPTY };
  for (const key of Object.keys(EMPTY) as (keyof Filters)[]) filters[key] = params.get(key) ?? "";
  return filters;
}

/** An access row's deciding roles in words, above its JSON. */
function AccessNote({ actionType, details }: { actionType: string; details: string | null }) {
  const note = accessDecisionNote(actionType, details);
  return note ? <span className="mb-1 block font-sans text-sm">{note}</span> : null;
}

/** /audit-logs: latest 100 entries newest first, filters, keyset paging and CSV export. */
export default function AuditLogViewer() {
  const [filters, setFilters] = useState<Filters>(EMPTY);
  const hydrated = useHydrated();
  const [applied, setApplied] = useState<Filters>(EMPTY);
  const [rows, setRows] = useState<Row[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [timeZone, setTimeZone] = useState("America/Sao_Paulo");
  const [loading, setLoading] = useState(true);

  const load = useCallback(async (active: Filters, after?: string) => {
    setLoading(true);
    try {
      const response = await fetch(`/api/audit-logs?${queryString(active, after)}`, { headers: { Accept: "application/json" } });
      if (!response.ok) throw new Error(String(response.status));
      const data = (await response.json()) as { rows: Row[]; nextCursor: string | null; timeZone: string };
      setRows((current) => (after ? [...current, ...data.rows] : data.rows));
      setCursor(data.nextCursor);
      setTimeZone(data.timeZone);
    } catch (error) {
      // Failing to load audit logs is reported on the console only.
      console.log("Falha ao carregar os logs de auditoria", error);
    }
    setLoading(false);
  }, []);

  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    // Filters chosen or typed before the island started are adopted, not silently dropped.
    const data = form.current ? new FormData(form.current) : null;
    const fromAddress = filtersFrom(window.location.search);
    const early = { ...fromAddress };
    for (const key of Object.keys(EMPTY) as (keyof Filters)[]) early[key] = String(data?.get(key) || fromAddress[key]);
    setFilters(early);
    setApplied(fromAddress);
    void load(fromAddress);
    // Back/Forward restore the filters that address carries.
    const onPopState = () => {
      const restored = filtersFrom(window.location.search);
      setFilters(restored);
      setApplied(restored);
      void load(restored);
    };
    window.addEventListener("popstate", onPopState);
    return () => window.removeEventListener("popstate", onPopState);
  }, [load]);

  const applyFilters = useCallback(
    (next: Filters) => {
      setApplied(next);
      const query = queryString(next);
      const address = `${window.location.pathname}${query ? `?${query}` : ""}`;
      if (address !== `${window.location.pathname}${window.location.search}`) window.history.pushState(null, "", address);
      void load(next);
    },
    [load],
  );

  // A changed filter applies by itself, once typing pauses (no "Filtrar" step to find); the address follows.
  useEffect(() => {
    if (queryString(filters) === queryString(applied)) return;
    const timer = setTimeout(() => applyFilters(filters), FILTER_DELAY_MS);
    return () => clearTimeout(timer);
  }, [filters, applied, applyFilters]);

  function apply(event: FormEvent) {
    event.preventDefault();
    applyFilters(filters);
  }

  const set = (key: keyof Filters) => (event: { target: { value: string } }) => setFilters((f) => ({ ...f, [key]: event.target.value }));

  return (
    <div>
      <form
        ref={form}
        onSubmit={apply}
        className="mb-4 grid gap-3 rounded-xl border border-slate-200 p-4 sm:grid-cols-2 lg:grid-cols-6 dark:border-slate-700"
      >
        <label className="text-sm lg:col-span-2">
          <span className="mb-1 block font-medium">Ação</span>
          <select name="action" aria-label="Ação" className={inputClass} value={filters.action} onChange={set("action")}>
            <option value="">Todas</option>
            {Object.entries(AUDIT_ACTION_LABELS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <label className="text-sm">
          <span className="mb-1 block font-medium">Resultado</span>
          <select name="result" aria-label="Resultado" className={inputClass} value={filters.result} onChange={set("result")}>
            <option value="">Todos</option>
            {Object.entries(AUDIT_RESULT_LABELS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <label className="text-sm">
          <span className="mb-1 block font-medium">Usuário</span>
          <input name="user" className={inputClass} placeholder="Nome ou e-mail" value={filters.user} onChange={set("user")} />
        </label>
        <label className="text-sm">
          <span className="mb-1 block font-medium">De</span>
          <input name="from" type="date" className={inputClass} value={filters.from} onChange={set("from")} />
        </label>
        <label className="text-sm">
          <span className="mb-1 block font-medium">Até</span>
          <input name="to" type="date" className={inputClass} value={filters.to} onChange={set("to")} />
        </label>
        <div className="flex flex-wrap gap-2 lg:col-span-6">
          <button type="submit" disabled={!hydrated} className={primaryButton}>
            Filtrar
          </button>
          <a className={ghostButton} href={`/api/audit-logs/export.csv?${queryString(applied)}`} download>
            <Download className="size-4" aria-hidden="true" /> Exportar CSV
          </a>
          <a className={ghostButton} href={`/api/audit-logs/export.csv?${queryString(applied)}&sep=%3B`} download>
            <Download className="size-4" aria-hidden="true" /> Exportar CSV para Excel (;)
          </a>
        </div>
      </form>
      {/* A row wider than a phone (a long detail) scrolls sideways: the keyboard reaches the scroll through the region (axe: scrollable-region-focusable). */}
      <div
        role="region"
        aria-label="Registros de auditoria"
        tabIndex={0}
        className="relative overflow-x-auto rounded-lg border border-slate-200 focus-visible:outline-2 focus-visible:outline-brand-600 dark:border-slate-700"
      >
        <table className="w-full text-left text-sm">
          <thead className="bg-slate-50 dark:bg-slate-800">
            <tr>
              <th className="px-3 py-2">Data/Hora</th>
              <th className="px-3 py-2">Usuário</th>
              <th className="px-3 py-2">Ação</th>
              <th className="px-3 py-2">Resultado</th>
              <th className="px-3 py-2">Detalhes</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.id} className="border-t border-slate-200 align-top dark:border-slate-700">
                <td className="px-3 py-2 whitespace-nowrap tabular-nums">{formatDateTime(row.createdAt, timeZone)}</td>
                <td className="px-3 py-2">
                  <span className="block">{row.userLabel}</span>
                  {row.userEmail && <span className="block text-xs text-slate-500">{row.userEmail}</span>}
                </td>
                <td className="px-3 py-2">{auditActionLabel(row.actionType)}</td>
                <td className="px-3 py-2">
                  <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${RESULT_CLASS[row.result]}`}>
                    {AUDIT_RESULT_LABELS[row.result]}
                  </span>
                </td>
                <td className="max-w-md px-3 py-2 font-mono text-xs">
                  <AccessNote actionType={row.actionType} details={row.actionDetails} />
                  <span className="block break-all" title={row.actionDetails ?? ""}>
                    {truncateDetails(row.actionDetails)}
                  </span>
                  {row.actionDetails && (
                    <details className="mt-1">
                      <summary className="cursor-pointer font-sans text-sky-700 hover:underline dark:text-sky-300">Detalhes</summary>
                      <dl className="mt-1 grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1 rounded bg-slate-50 p-2 font-sans dark:bg-slate-800">
                        {detailFields(row.actionDetails).map((field, index) => (
                          <div key={index} className="contents">
                            <dt className="font-semibold">{field.label}</dt>
                            <dd className="break-all">{field.value}</dd>
                          </div>
                        ))}
                      </dl>
                      <details className="mt-1">
                        <summary className="cursor-pointer font-sans text-slate-600 hover:underline dark:text-slate-300">
                          JSON completo
                        </summary>
                        <pre className="mt-1 max-h-80 overflow-auto rounded bg-slate-50 p-2 whitespace-pre-wrap break-all dark:bg-slate-800">
                          {prettyDetails(row.actionDetails)}
                        </pre>
                      </details>
                    </details>
                  )}
                </td>
              </tr>
            ))}
            {loading &&
              Array.from({ length: 10 }, (_, index) => (
                <tr key={`skeleton-${index}`} data-skeleton className="border-t border-slate-200 dark:border-slate-700">
                  {Array.from({ length: 5 }, (_, cell) => (
                    <td key={cell} className="px-3 py-3">
                      <span className="block h-4 animate-pulse rounded bg-slate-200 dark:bg-slate-700" />
                    </td>
                  ))}
                </tr>
              ))}
            {!loading && rows.length === 0 && (
              <tr>
                <td colSpan={5} className="px-3 py-6 text-center text-slate-500">
                  Nenhum registro encontrado
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
      {cursor && !loading && (
        <div className="mt-4 text-center">
          <button type="button" className={ghostButton} onClick={() => load(applied, cursor)}>
            Carregar mais
          </button>
        </div>
      )}
    </div>
  );
}
