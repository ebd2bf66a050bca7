/**
 * /leitura/relatorio: totals per required page, the filter, the keyset-paged list of people with
 * each person's pending pages on demand, and the CSV links, over one filter state kept in the address.
 * About 200 lines because the filter form, the totals and the list all read that state.
 */
import { useCallback, useEffect, useState, type FormEvent } from "react";
import { Download } from "lucide-react";
import { formatDateTime } from "../../../lib/admin/labels";
import { roleLabel } from "../../../lib/admin/role-labels";
import type { PersonReading, ReadingReport as Report, ReportPerson } from "../../../lib/reading/report";
import { ghostButton, inputClass, primaryButton } from "../admin/styles";
import { useHydrated } from "../ui/use-hydrated";

const FIELDS = ["pagina", "versao", "perfil", "situacao", "busca"] as const;
type Filters = Record<(typeof FIELDS)[number], string>;
const EMPTY: Filters = { pagina: "", versao: "", perfil: "", situacao: "", busca: "" };

function queryString(filters: Filters, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries({ ...filters, ...extra })) if (value) params.set(key, value);
  return params.toString();
}

function filtersFrom(search: string): Filters {
  const params = new URLSearchParams(search);
  return Object.fromEntries(FIELDS.map((key) => [key, params.get(key) ?? ""])) as Filters;
}

/** One person's pending pages, loaded when their row is opened. */
function PendingPages({ person }: { person: ReportPerson }) {
  const [reading, setReading] = useState<PersonReading | null | "erro">(null);
  useEffect(() => {
    const load = async (): Promise<PersonReading | "erro"> => {
      const response = await fetch(`/api/leitura/relatorio/pessoas/${encodeURIComponent(person.id)}`);
      return response.ok ? ((await response.json()) as PersonReading) : "erro";
    };
    void load()
      .catch(() => "erro" as const)
      .then(setReading);
  }, [person.id]);
  if (reading === null) return <p role="status">Carregando…</p>;
  if (reading === "erro") return <p role="status">Não foi possível carregar as pendências.</p>;
  if (!reading.pendentes.length) return <p>Nenhuma leitura pendente ({reading.confirmadas} confirmadas).</p>;
  return (
    <ul className="list-disc space-y-1 pl-5">
      {reading.pendentes.map((item) => (
        <li key={item.pagina}>
          <a className="font-semibold text-brand-700 underline dark:text-brand-100" href={item.pagina}>
            {item.titulo}
          </a>{" "}
          — versão {item.versao}
          {item.confirmada !== null ? ` (confirmou a versão ${item.confirmada})` : " (nunca confirmou)"}
        </li>
      ))}
    </ul>
  );
}

export default function ReadingReport() {
  const hydrated = useHydrated();
  const [filters, setFilters] = useState<Filters>(EMPTY);
  const [applied, setApplied] = useState<Filters>(EMPTY);
  const [report, setReport] = useState<Report | null>(null);
  const [error, setError] = useState("");
  const [loading, setLoading] = useState(true);
  const [open, setOpen] = useState<string | null>(null);

  const load = useCallback(async (active: Filters, after?: string) => {
    setLoading(true);
    setError("");
    try {
      const response = await fetch(`/api/leitura/relatorio?${queryString(active, after ? { apos: after } : {})}`);
      const body = (await response.json()) as Report & { error?: string };
      // Totals counted for the first time (a large portal): the server says when to ask again.
      const retry = Number(response.headers.get("retry-after"));
      if (response.status === 503 && retry > 0) {
        setError(body.error ?? "Calculando os totais…");
        setTimeout(() => void load(active, after), retry * 1000);
        return;
      }
      if (!response.ok) setError(body.error ?? "Não foi possível carregar o relatório.");
      else setReport((current) => (after && current ? { ...body, pessoas: [...current.pessoas, ...body.pessoas] } : body));
    } catch {
      setError("Sem conexão com o portal. Tente de novo.");
    }
    setLoading(false);
  }, []);

  useEffect(() => {
    const initial = filtersFrom(window.location.search);
    setFilters(initial);
    setApplied(initial);
    void load(initial);
  }, [load]);

  function apply(event: FormEvent) {
    event.preventDefault();
    // Another page has other versions: its current one is asked unless a version was chosen for it.
    const next = filters.pagina !== applied.pagina ? { ...filters, versao: "" } : filters;
    setFilters(next);
    setApplied(next);
    setOpen(null);
    window.history.replaceState(null, "", `${window.location.pathname}${queryString(next) ? `?${queryString(next)}` : ""}`);
    void load(next);
  }

  const set = (key: keyof Filters) => (event: { target: { value: string } }) => setFilters((f) => ({ ...f, [key]: event.target.value }));
  const selected = report?.selecionada ?? null;
  const exportQuery = selected ? queryString({ ...applied, pagina: selected.pagina, versao: String(selected.versao) }) : "";

  return (
    <div>
      {report && report.paginas.length > 0 && (
        // `relative`: the buttons' sr-only text (position: absolute) would otherwise be placed against the page, past
        // this scrolling box, and widen the whole page on a phone (395–436 px on 390).
        // Focusable (a region with a name): on a phone the table scrolls sideways, also with the keyboard's arrows.
        <div
          role="region"
          aria-label="Resumo por página"
          tabIndex={0}
          className="relative mb-6 overflow-x-auto rounded-lg border border-slate-200 focus-visible:ring-2 focus-visible:ring-brand-600 focus-visible:outline-none dark:border-slate-700"
        >
          <table className="w-full text-left text-sm">
            <caption className="px-3 py-2 text-left font-semibold">Resumo por página (versão atual)</caption>
            <thead className="bg-slate-50 dark:bg-slate-800">
              <tr>
                <th className="px-3 py-2">Página</th>
                <th className="px-3 py-2">Versão</th>
                <th className="px-3 py-2">Confirmadas</th>
                <th className="px-3 py-2">Pendentes</th>
                <th className="px-3 py-2">Percentual</th>
              </tr>
            </thead>
            <tbody>
              {report.paginas.map((tally) => (
                <tr key={tally.pagina} className="border-t border-slate-200 dark:border-slate-700">
                  <td className="px-3 py-2">{tally.titulo}</td>
                  <td className="px-3 py-2 tabular-nums">{tally.versao}</td>
                  <td className="px-3 py-2 tabular-nums">{tally.confirmadas}</td>
                  <td className="px-3 py-2 tabular-nums">{tally.pendentes}</td>
                  <td className="px-3 py-2 tabular-nums">{tally.percentual.toLocaleString("pt-BR")}%</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <form
        onSubmit={apply}
        className="mb-4 grid gap-3 rounded-xl border border-slate-200 p-4 sm:grid-cols-2 lg:grid-cols-5 dark:border-slate-700"
      >
        <label className="text-sm">
          <span className="mb-1 block font-medium">Página</span>
          <select name="pagina" className={inputClass} value={filters.pagina || selected?.pagina || ""} onChange={set("pagina")}>
            {report?.paginas.map((tally) => (
              <option key={tally.pagina} value={tally.pagina}>
                {tally.titulo}
              </option>
            ))}
          </select>
        </label>
        <label className="text-sm">
          <span className="mb-1 block font-medium">Versão</span>
          <select name="versao" className={inputClass} value={filters.versao} onChange={set("versao")}>
            <option value="">Atual</option>
            {report?.versoes.map((version) => (
              <option key={version} value={version}>
                Versão {version}
              </option>
            ))}
          </select>
        </label>
        <label className="text-sm">
          <span className="mb-1 block font-medium">Perfil</span>
          <select name="perfil" className={inputClass} value={filters.perfil} onChange={set("perfil")}>
            <option value="">Todos</option>
            {report?.perfis.map((role) => (
              <option key={role.nome} value={role.nome}>
                {role.rotulo}
              </option>
            ))}
          </select>
        </label>
        <label className="text-sm">
          <span className="mb-1 block font-medium">Situação</span>
          <select name="situacao" className={inputClass} value={filters.situacao} onChange={set("situacao")}>
            <option value="">Todas</option>
            <option value="confirmada">Confirmada</option>
            <option value="pendente">Pendente</option>
          </select>
        </label>
        <label className="text-sm">
          <span className="mb-1 block font-medium">Nome ou e-mail</span>
          <input name="busca" type="search" className={inputClass} value={filters.busca} onChange={set("busca")} />
        </label>
        <div className="flex flex-wrap gap-2 lg:col-span-5">
          <button type="submit" disabled={!hydrated} className={primaryButton}>
            Filtrar
          </button>
          {selected && (
            <>
              <a className={ghostButton} href={`/api/leitura/relatorio/export.csv?${exportQuery}`} download>
                <Download className="size-4" aria-hidden="true" /> Baixar CSV
              </a>
              <a className={ghostButton} href={`/api/leitura/relatorio/export.csv?${exportQuery}&sep=%3B`} download>
                <Download className="size-4" aria-hidden="true" /> Baixar CSV para Excel (;)
              </a>
            </>
          )}
        </div>
      </form>
      <p role="status" className="mb-3 min-h-6 text-sm">
        {error ||
          (loading
            ? "Carregando…"
            : selected
              ? `${selected.titulo}, versão ${selected.versao}: ${selected.confirmadas} de ${selected.publico} confirmaram (${selected.percentual.toLocaleString("pt-BR")}%); ${selected.pendentes} pendentes.`
              : report
                ? "Nenhuma página de leitura obrigatória que você possa abrir."
                : "")}
      </p>
      {selected && selected.perfis.length > 0 && (
        <p className="mb-3 text-sm text-slate-700 dark:text-slate-200">
          Por perfil: {selected.perfis.map((role) => `${role.rotulo} ${role.confirmadas} de ${role.publico}`).join(" · ")}. Totais contados
          em {formatDateTime(selected.calculadoEm, report!.fuso)}.
        </p>
      )}
      {selected && (
        <div className="relative overflow-x-auto rounded-lg border border-slate-200 dark:border-slate-700">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Pessoas que devem ler {selected.titulo}</caption>
            <thead className="bg-slate-50 dark:bg-slate-800">
              <tr>
                <th className="px-3 py-2">Nome</th>
                <th className="px-3 py-2">E-mail</th>
                <th className="px-3 py-2">Perfis</th>
                <th className="px-3 py-2">Situação</th>
                <th className="px-3 py-2">Pendências</th>
              </tr>
            </thead>
            {report!.pessoas.map((person) => (
              <tbody key={person.id} className="border-t border-slate-200 dark:border-slate-700">
                <tr>
                  <td className="px-3 py-2">{person.nome || "—"}</td>
                  <td className="px-3 py-2 break-all">{person.email}</td>
                  <td className="px-3 py-2">{person.perfis.map(roleLabel).join(", ") || "—"}</td>
                  <td className="px-3 py-2">
                    {person.pendente ? "Pendente" : `Confirmada em ${formatDateTime(person.confirmadaEm!, report!.fuso)}`}
                  </td>
                  <td className="px-3 py-2">
                    <button
                      type="button"
                      className={ghostButton}
                      aria-expanded={open === person.id}
                      aria-controls={`pendencias-${person.id}`}
                      onClick={() => setOpen(open === person.id ? null : person.id)}
                    >
                      Ver pendências<span className="sr-only"> de {person.nome || person.email}</span>
                    </button>
                  </td>
                </tr>
                {open === person.id && (
                  <tr id={`pendencias-${person.id}`}>
                    <td colSpan={5} className="bg-slate-50 px-3 py-2 dark:bg-slate-800">
                      <PendingPages person={person} />
                    </td>
                  </tr>
                )}
              </tbody>
            ))}
            {!loading && report!.pessoas.length === 0 && (
              <tbody>
                <tr>
                  <td colSpan={5} className="px-3 py-6 text-center text-slate-600 dark:text-slate-300">
                    Ninguém encontrado com este filtro.
                  </td>
                </tr>
              </tbody>
            )}
          </table>
        </div>
      )}
      {report?.proximo && !loading && (
        <div className="mt-4 text-center">
          <button type="button" className={ghostButton} onClick={() => load(applied, report.proximo!)}>
            Carregar mais
          </button>
        </div>
      )}
    </div>
  );
}
