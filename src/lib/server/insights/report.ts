/**
 * The Insights report, read from the aggregates only (see store.ts) and mostly from their pre-summed
 * tables (migration 0023, kept by triggers): a period's whole weeks, each sketch's summary, each
 * query's totals; the day rows only for the loose days at a period's ends. So it stays in tens of
 * ms at 50 pages × 400 days × 100,000 people (npm run bench -- --insights). Only pages the viewer may
 * open appear; queries only once K_ANONYMITY people searched them.
 */
import { and, desc, eq, gt, gte, inArray, isNotNull, lt, lte, ne, sql, type AnyColumn, type SQL } from "drizzle-orm";
import {
  insightsComments,
  insightsQueries,
  insightsReaderWeeks,
  insightsReads,
  insightsReadsWeekly,
  insightsSearches,
  insightsSearchTotals,
  insightsVotes,
  insightsVotesWeekly,
  users,
} from "../../../../db/schema/index.ts";
import { roleFilterLabel, type InsightsFilter, type InsightsReport, type SearchRow } from "../../insights/report.ts";
import { decideAccess, ROUTES, type Principal, type RouteRule } from "../../routes.ts";
import type { Db } from "../data/db.ts";
import { withoutIndex } from "../data/dialect.ts";
import { isoWeekOf } from "../reading/digest-week.ts";
import { cutPeriod, dayOf, daysBefore, daysBetween, type PeriodCut } from "./calendar.ts";
import { estimateFromSummary } from "./hll.ts";
import { ALL_ROLES } from "./collector.ts";
import { K_ANONYMITY } from "./store.ts";

const COMMENTS_SHOWN = 200;
const QUERIES_SHOWN = 20;

/** Content pages (the reading order) the viewer may open. */
export function visiblePages(principal: Principal): RouteRule[] {
  return ROUTES.filter((route) => route.reading && decideAccess(route, principal) === "allow");
}

/** The loose days of a period (before and after its whole weeks), as conditions on a day column. */
function looseDays(cut: PeriodCut, day: AnyColumn): SQL[] {
  if (!cut.weeks) return [gte(day, cut.since)];
  const out: SQL[] = [gt(day, cut.weeks.lastDay)];
  if (cut.since < cut.weeks.firstDay) out.unshift(and(gte(day, cut.since), lt(day, cut.weeks.firstDay))!);
  return out;
}

/**
 * Reads over a period summed per page or per role: the whole weeks from insights_reads_weekly (kept
 * equal to the sum of their days by the migration's triggers), the loose days from insights_reads.
 */
async function readsOver(db: Db, cut: PeriodCut, by: "page" | "role", daily: SQL, weekly: SQL): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  const add = (rows: { key: string; reads: number }[]) => {
    for (const row of rows) out.set(row.key, (out.get(row.key) ?? 0) + row.reads);
  };
  const w = insightsReadsWeekly;
  const parts = await Promise.all([
    cut.weeks
      ? db
          .select({ key: w[by], reads: sql<number>`sum(${w.reads})`.mapWith(Number) })
          .from(w)
          .where(and(weekly, gte(w.week, cut.weeks.first), lte(w.week, cut.weeks.last)))
          .groupBy(w[by])
      : [],
    ...looseDays(cut, insightsReads.day).map((days) =>
      db
        .select({ key: insightsReads[by], reads: sql<number>`sum(${insightsReads.reads})`.mapWith(Number) })
        .from(insightsReads)
        .where(and(daily, days))
        .groupBy(insightsReads[by]),
    ),
  ]);
  for (const rows of parts) add(rows);
  return out;
}

/**
 * Each shown query's searches from `since` on (a period of `days` days): summed from the days when
 * the period is the shorter side, else each query's totals (insights_search_totals, kept by the
 * migration's triggers) minus the days before it, the few a year leaves out. Equal either way; only
 * queries K_ANONYMITY people searched.
 */
async function searchesSince(db: Db, since: string, days: number): Promise<SearchRow[]> {
  const s = insightsSearches;
  const sum = (column: AnyColumn) => sql<number>`sum(${column})`.mapWith(Number);
  const [oldest] = await db.select({ day: sql<string | null>`min(${s.day})` }).from(s);
  const sums = new Map<string, SearchRow>();
  const add = (rows: { query: string; searches: number; empty: number; opens: number }[], sign: 1 | -1) => {
    for (const row of rows) {
      const known = sums.get(row.query) ?? { consulta: row.query, buscas: 0, semResultado: 0, aberturas: 0 };
      known.buscas += sign * row.searches;
      known.semResultado += sign * row.empty;
      known.aberturas += sign * row.opens;
      sums.set(row.query, known);
    }
  };
  const grouped = { query: s.query, searches: sum(s.searches), empty: sum(s.empty), opens: sum(s.opens) };
  // SQLite would walk the (query, day) key for every query to skip sorting; the covering (day, …) index reads only the days asked.
  const byQuery = withoutIndex(s.query);
  const t = insightsSearchTotals;
  const fromTotals = oldest?.day !== undefined && oldest.day !== null && oldest.day < since && daysBetween(oldest.day, since) < days;
  const [first, second, shown] = await Promise.all([
    fromTotals
      ? db.select({ query: t.query, searches: t.searches, empty: t.empty, opens: t.opens }).from(t)
      : db.select(grouped).from(s).where(gte(s.day, since)).groupBy(byQuery),
    fromTotals ? db.select(grouped).from(s).where(lt(s.day, since)).groupBy(byQuery) : [],
    db
      .select({ query: insightsQueries.query, text: insightsQueries.text })
      .from(insightsQueries)
      .where(and(gte(insightsQueries.people, K_ANONYMITY), isNotNull(insightsQueries.text))),
  ]);
  add(first, 1);
  add(second, -1);
  const out: SearchRow[] = [];
  for (const { query, text } of shown) {
    const row = sums.get(query);
    // A query searched only before the period sums to nothing (every stored day counts at least one search).
    // Rows hold the query's keyed hash (store.ts): its text is the one written at the threshold.
    if (row && row.buscas > 0) out.push({ ...row, consulta: text! });
  }
  return out;
}

/** The estimated distinct readers of each page in `week`. */
async function readersOfWeek(db: Db, week: string, paths: string[]): Promise<Map<string, number>> {
  const rows = await db
    .select({ page: insightsReaderWeeks.page, filled: insightsReaderWeeks.filled, harmonic: insightsReaderWeeks.harmonic })
    .from(insightsReaderWeeks)
    .where(and(eq(insightsReaderWeeks.week, week), inArray(insightsReaderWeeks.page, paths)));
  return new Map(rows.map((row) => [row.page, estimateFromSummary(num(row.filled), num(row.harmonic))]));
}

/** 'Ajudou' votes per page over a period: whole weeks from insights_votes_weekly, the loose days from the votes. */
async function votesOver(db: Db, cut: PeriodCut, paths: string[]): Promise<{ yes: Map<string, number>; no: Map<string, number> }> {
  const w = insightsVotesWeekly;
  const v = insightsVotes;
  const parts = await Promise.all([
    cut.weeks
      ? db
          .select({ page: w.page, helpful: w.helpful, votes: sql<number>`sum(${w.votes})`.mapWith(Number) })
          .from(w)
          .where(and(inArray(w.page, paths), gte(w.week, cut.weeks.first), lte(w.week, cut.weeks.last)))
          .groupBy(w.page, w.helpful)
      : [],
    ...looseDays(cut, v.day).map((days) =>
      db
        .select({ page: v.page, helpful: v.helpful, votes: sql<number>`count(*)`.mapWith(Number) })
        .from(v)
        .where(and(days, inArray(v.page, paths)))
        .groupBy(v.page, v.helpful),
    ),
  ]);
  const yes = new Map<string, number>();
  const no = new Map<string, number>();
  for (const row of parts.flat()) {
    const into = num(row.helpful) === 1 ? yes : no;
    into.set(row.page, (into.get(row.page) ?? 0) + row.votes);
  }
  return { yes, no };
}

/** The newest comments of the period on the viewer's pages. */
function commentsSince(db: Db, since: string, paths: string[]) {
  return db
    .select({
      id: insightsComments.id,
      page: insightsComments.page,
      version: insightsComments.version,
      day: insightsComments.day,
      helpful: insightsComments.helpful,
      reason: insightsComments.reason,
      body: insightsComments.body,
      status: insightsComments.status,
      name: users.fullName,
      email: users.email,
    })
    .from(insightsComments)
    .leftJoin(users, eq(users.id, insightsComments.userId))
    .where(and(gte(insightsComments.day, since), inArray(insightsComments.page, paths)))
    .orderBy(desc(insightsComments.day), insightsComments.id)
    .limit(COMMENTS_SHOWN);
}

/** Marks a page read on or after `quietSince` in lastReads' answer. */
const RECENT = "recente";

/**
 * Each page's last day read: RECENT when read on or after `quietSince` (one short range for all),
 * else its last day (looked up only for those few pages), absent when never read.
 */
async function lastReads(db: Db, paths: string[], quietSince: string): Promise<Map<string, string>> {
  const r = insightsReads;
  const recent = await db
    .selectDistinct({ page: r.page })
    .from(r)
    .where(and(eq(r.role, ALL_ROLES), gte(r.day, quietSince), inArray(r.page, paths)));
  const out = new Map<string, string>(recent.map((row) => [row.page, RECENT]));
  const quiet = paths.filter((path) => !out.has(path));
  if (quiet.length === 0) return out;
  const rows = await db
    .select({ page: r.page, last: sql<string>`max(${r.day})` })
    .from(r)
    .where(and(eq(r.role, ALL_ROLES), inArray(r.page, quiet)))
    .groupBy(r.page);
  for (const row of rows) out.set(row.page, row.last);
  return out;
}

const num = (value: unknown) => Number(value ?? 0);

export type ReportResult = { ok: true; report: InsightsReport } | { ok: false; error: string };

export async function insightsReport(
  db: Db,
  principal: Principal,
  filter: InsightsFilter,
  timeZone: string,
  now = Date.now(),
): Promise<ReportResult> {
  const pages = visiblePages(principal);
  const paths = pages.map((page) => page.path);
  const titles = new Map(pages.map((page) => [page.path, page.name]));
  if (filter.pagina !== undefined && !titles.has(filter.pagina)) return { ok: false, error: "Página inválida." };
  const today = dayOf(now, timeZone);
  const since = daysBefore(today, Number(filter.periodo) - 1);
  const lastWeek = isoWeekOf(now - 7 * 86_400_000, timeZone);
  const thisWeek = isoWeekOf(now, timeZone);
  const sinceWeek = isoWeekOf(Date.parse(`${since}T12:00:00Z`), "UTC");
  const role = filter.perfil;
  if (paths.length === 0) paths.push("");

  const cut = cutPeriod(since, today);

  // Independent reads at once (PostgreSQL: one round trip's wait instead of a dozen; SQLite answers each at once anyway).
  const [reads, readersOf, readersNowOf, votes, comments, lastOf, searches] = await Promise.all([
    readsOver(
      db,
      cut,
      "page",
      and(eq(insightsReads.role, role), inArray(insightsReads.page, paths))!,
      and(eq(insightsReadsWeekly.role, role), inArray(insightsReadsWeekly.page, paths))!,
    ),
    readersOfWeek(db, lastWeek, paths),
    readersOfWeek(db, thisWeek, paths),
    votesOver(db, cut, paths),
    commentsSince(db, since, paths),
    lastReads(db, paths, daysBefore(today, 29)),
    searchesSince(db, since, Number(filter.periodo)),
  ]);
  const selected = filter.pagina ?? [...reads].sort((a, b) => b[1] - a[1])[0]?.[0] ?? pages[0]?.path ?? null;

  const [series, readerWeeks, roles] = selected
    ? await Promise.all([
        db
          .select({ day: insightsReads.day, reads: insightsReads.reads })
          .from(insightsReads)
          .where(and(eq(insightsReads.page, selected), gte(insightsReads.day, since), eq(insightsReads.role, role))),
        db
          .select({ week: insightsReaderWeeks.week, filled: insightsReaderWeeks.filled, harmonic: insightsReaderWeeks.harmonic })
          .from(insightsReaderWeeks)
          .where(and(eq(insightsReaderWeeks.page, selected), gte(insightsReaderWeeks.week, sinceWeek))),
        readsOver(
          db,
          cut,
          "role",
          and(eq(insightsReads.page, selected), ne(insightsReads.role, ALL_ROLES))!,
          and(eq(insightsReadsWeekly.page, selected), ne(insightsReadsWeekly.role, ALL_ROLES))!,
        ),
      ])
    : [[], [], new Map<string, number>()];
  const byDay = new Map(series.map((row) => [row.day, row.reads]));
  const serie: InsightsReport["serie"] = [];
  for (let offset = Number(filter.periodo) - 1; offset >= 0; offset--) {
    const day = daysBefore(today, offset);
    serie.push({ dia: day, leituras: byDay.get(day) ?? 0 });
  }
  const byCount = (pick: (row: SearchRow) => number) => (a: SearchRow, b: SearchRow) =>
    pick(b) - pick(a) || a.consulta.localeCompare(b.consulta, "pt-BR");

  return {
    ok: true,
    report: {
      filtro: { periodo: filter.periodo, perfil: role, pagina: selected },
      desde: since,
      ate: today,
      semanaCompleta: lastWeek,
      semanaAtual: thisWeek,
      paginas: pages
        .map((page) => ({
          pagina: page.path,
          titulo: page.name,
          leituras: reads.get(page.path) ?? 0,
          leitoresSemana: readersOf.get(page.path) ?? 0,
          leitoresSemanaAtual: readersNowOf.get(page.path) ?? 0,
          sim: votes.yes.get(page.path) ?? 0,
          nao: votes.no.get(page.path) ?? 0,
        }))
        .sort((a, b) => b.leituras - a.leituras || a.titulo.localeCompare(b.titulo, "pt-BR")),
      serie,
      leitores: readerWeeks
        .filter((row) => num(row.filled) > 0)
        .sort((a, b) => a.week.localeCompare(b.week))
        .map((row) => ({ semana: row.week, leitores: estimateFromSummary(num(row.filled), num(row.harmonic)) })),
      perfis: [...roles]
        .map(([perfil, leituras]) => ({ perfil, rotulo: roleFilterLabel(perfil), leituras }))
        .sort((a, b) => b.leituras - a.leituras || a.perfil.localeCompare(b.perfil)),
      comentarios: comments.map((row) => ({
        id: row.id,
        pagina: row.page,
        titulo: titles.get(row.page) ?? row.page,
        versao: row.version,
        dia: row.day,
        ajudou: num(row.helpful) === 1,
        motivo: row.reason,
        comentario: row.body,
        contato: row.email ? { nome: row.name ?? "", email: row.email } : null,
        status: row.status,
      })),
      semLeitura: pages
        .filter((page) => lastOf.get(page.path) !== RECENT)
        .map((page) => ({ pagina: page.path, titulo: page.name, ultimaLeitura: lastOf.get(page.path) ?? null })),
      buscas: [...searches].sort(byCount((row) => row.buscas)).slice(0, QUERIES_SHOWN),
      semResultado: searches
        .filter((row) => row.semResultado > 0)
        .sort(byCount((row) => row.semResultado))
        .slice(0, QUERIES_SHOWN),
      semAbertura: searches
        .filter((row) => row.buscas > row.semResultado && row.aberturas === 0)
        .sort(byCount((row) => row.buscas - row.semResultado))
        .slice(0, QUERIES_SHOWN),
    },
  };
}

/** Sets a comment's status; false when the comment is not on a page the viewer may open. */
export async function setCommentStatus(db: Db, principal: Principal, id: string, status: string): Promise<boolean> {
  const paths = visiblePages(principal).map((page) => page.path);
  if (paths.length === 0) return false;
  const changed = await db
    .update(insightsComments)
    .set({ status })
    .where(and(eq(insightsComments.id, id), inArray(insightsComments.page, paths)))
    .returning({ id: insightsComments.id });
  return changed.length === 1;
}
