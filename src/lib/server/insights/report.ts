/**
 * The Insights report, read from the aggregates only (see store.ts): every query is bounded by the
 * period and at most one page's sketch, so it stays fast at 50 pages × 400 days × 100,000 people
 * (npm run bench -- --insights). Only pages the viewer may open appear; queries only once K_ANONYMITY
 * people searched them.
 */
import { and, desc, eq, gte, inArray, ne, sql } from "drizzle-orm";
import {
  insightsComments,
  insightsQueries,
  insightsReaders,
  insightsReads,
  insightsSearches,
  insightsVotes,
  users,
} from "../../../../db/schema/index.ts";
import { roleFilterLabel, type InsightsFilter, type InsightsReport, type SearchRow } from "../../insights/report.ts";
import { decideAccess, ROUTES, type Principal, type RouteRule } from "../../routes.ts";
import type { Db } from "../data/db.ts";
import { isoWeekOf } from "../reading/digest-week.ts";
import { dayOf, daysBefore } from "./calendar.ts";
import { estimateDistinct, HLL_REGISTERS } from "./hll.ts";
import { ALL_ROLES } from "./collector.ts";
import { K_ANONYMITY } from "./store.ts";

const COMMENTS_SHOWN = 200;
const QUERIES_SHOWN = 20;

/** Content pages (the reading order) the viewer may open. */
export function visiblePages(principal: Principal): RouteRule[] {
  return ROUTES.filter((route) => route.reading && decideAccess(route, principal) === "allow");
}

/** The estimate from (rank, registers) counts of one sketch. */
function estimateFromCounts(counts: { rank: number; registers: number }[]): number {
  const ranks: number[] = [];
  for (const { rank, registers } of counts)
    for (let index = 0; index < registers && ranks.length < HLL_REGISTERS; index++) ranks.push(rank);
  return estimateDistinct(ranks);
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
  const sinceWeek = isoWeekOf(Date.parse(`${since}T12:00:00Z`), "UTC");
  const role = filter.perfil;
  if (paths.length === 0) paths.push("");

  const readsByPage = await db
    .select({ page: insightsReads.page, reads: sql<number>`sum(${insightsReads.reads})`.mapWith(Number) })
    .from(insightsReads)
    .where(and(gte(insightsReads.day, since), eq(insightsReads.role, role), inArray(insightsReads.page, paths)))
    .groupBy(insightsReads.page);
  const reads = new Map(readsByPage.map((row) => [row.page, row.reads]));
  const selected = filter.pagina ?? [...reads].sort((a, b) => b[1] - a[1])[0]?.[0] ?? pages[0]?.path ?? null;

  const weekSketches = await db
    .select({ page: insightsReaders.page, rank: insightsReaders.rank, registers: sql<number>`count(*)`.mapWith(Number) })
    .from(insightsReaders)
    .where(and(eq(insightsReaders.week, lastWeek), inArray(insightsReaders.page, paths)))
    .groupBy(insightsReaders.page, insightsReaders.rank);
  const sketchOf = new Map<string, { rank: number; registers: number }[]>();
  for (const row of weekSketches) sketchOf.set(row.page, [...(sketchOf.get(row.page) ?? []), row]);

  const votes = await db
    .select({ page: insightsVotes.page, helpful: insightsVotes.helpful, votes: sql<number>`count(*)`.mapWith(Number) })
    .from(insightsVotes)
    .where(and(gte(insightsVotes.day, since), inArray(insightsVotes.page, paths)))
    .groupBy(insightsVotes.page, insightsVotes.helpful);
  const yes = new Map<string, number>();
  const no = new Map<string, number>();
  for (const row of votes) (row.helpful ? yes : no).set(row.page, row.votes);

  const series = selected
    ? await db
        .select({ day: insightsReads.day, reads: sql<number>`sum(${insightsReads.reads})`.mapWith(Number) })
        .from(insightsReads)
        .where(and(eq(insightsReads.page, selected), eq(insightsReads.role, role), gte(insightsReads.day, since)))
        .groupBy(insightsReads.day)
    : [];
  const byDay = new Map(series.map((row) => [row.day, row.reads]));
  const serie: InsightsReport["serie"] = [];
  for (let offset = Number(filter.periodo) - 1; offset >= 0; offset--) {
    const day = daysBefore(today, offset);
    serie.push({ dia: day, leituras: byDay.get(day) ?? 0 });
  }

  const readerCounts = selected
    ? await db
        .select({ week: insightsReaders.week, rank: insightsReaders.rank, registers: sql<number>`count(*)`.mapWith(Number) })
        .from(insightsReaders)
        .where(and(eq(insightsReaders.page, selected), gte(insightsReaders.week, sinceWeek)))
        .groupBy(insightsReaders.week, insightsReaders.rank)
    : [];
  const weeks = new Map<string, { rank: number; registers: number }[]>();
  for (const row of readerCounts) weeks.set(row.week, [...(weeks.get(row.week) ?? []), row]);

  const roles = selected
    ? await db
        .select({ role: insightsReads.role, reads: sql<number>`sum(${insightsReads.reads})`.mapWith(Number) })
        .from(insightsReads)
        .where(and(eq(insightsReads.page, selected), gte(insightsReads.day, since), ne(insightsReads.role, ALL_ROLES)))
        .groupBy(insightsReads.role)
    : [];

  const comments = await db
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

  const lastRead = await db
    .select({ page: insightsReads.page, last: sql<string>`max(${insightsReads.day})` })
    .from(insightsReads)
    .where(and(eq(insightsReads.role, ALL_ROLES), inArray(insightsReads.page, paths)))
    .groupBy(insightsReads.page);
  const lastOf = new Map(lastRead.map((row) => [row.page, row.last]));
  const quietSince = daysBefore(today, 29);

  const searchRows = await db
    .select({
      query: insightsSearches.query,
      searches: sql<number>`sum(${insightsSearches.searches})`.mapWith(Number),
      empty: sql<number>`sum(${insightsSearches.empty})`.mapWith(Number),
      opens: sql<number>`sum(${insightsSearches.opens})`.mapWith(Number),
    })
    .from(insightsSearches)
    .innerJoin(insightsQueries, and(eq(insightsQueries.query, insightsSearches.query), gte(insightsQueries.people, K_ANONYMITY)))
    .where(gte(insightsSearches.day, since))
    .groupBy(insightsSearches.query);
  const searches: SearchRow[] = searchRows.map((row) => ({
    consulta: row.query,
    buscas: row.searches,
    semResultado: row.empty,
    aberturas: row.opens,
  }));
  const byCount = (pick: (row: SearchRow) => number) => (a: SearchRow, b: SearchRow) =>
    pick(b) - pick(a) || a.consulta.localeCompare(b.consulta, "pt-BR");

  return {
    ok: true,
    report: {
      filtro: { periodo: filter.periodo, perfil: role, pagina: selected },
      desde: since,
      ate: today,
      semanaCompleta: lastWeek,
      paginas: pages
        .map((page) => ({
          pagina: page.path,
          titulo: page.name,
          leituras: reads.get(page.path) ?? 0,
          leitoresSemana: estimateFromCounts(sketchOf.get(page.path) ?? []),
          sim: yes.get(page.path) ?? 0,
          nao: no.get(page.path) ?? 0,
        }))
        .sort((a, b) => b.leituras - a.leituras || a.titulo.localeCompare(b.titulo, "pt-BR")),
      serie,
      leitores: [...weeks]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([semana, counts]) => ({ semana, leitores: estimateFromCounts(counts) })),
      perfis: roles
        .map((row) => ({ perfil: row.role, rotulo: roleFilterLabel(row.role), leituras: row.reads }))
        .sort((a, b) => b.leituras - a.leituras),
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
        .filter((page) => (lastOf.get(page.path) ?? "") < quietSince)
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
