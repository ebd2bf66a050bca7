/**
 * The required-reading report for admins and líderes. A viewer sees only the required pages they
 * may open themselves (a title they may not open never reaches them) and, for each, everyone who
 * must read it: people appear only under pages they may open. Totals come from tallies.ts; the
 * list of people is read live, REPORT_PAGE_SIZE at a time in e-mail order (keyset: `email > cursor`
 * over the unique e-mail index), filtered by role, status and name or e-mail.
 */
import { and, asc, eq, gt, not, sql, type SQL } from "drizzle-orm";
import { readingConfirmations, users } from "../../../../db/schema/index.ts";
import { roleLabel } from "../../admin/role-labels.ts";
import { decideAccess, findRoute, type Principal } from "../../routes.ts";
import { readingStatusOf } from "../../reading/pending.ts";
import {
  REPORT_PAGE_SIZE,
  type PersonReading,
  type ReadingReport,
  type ReadingReportFilter,
  type ReportPerson,
} from "../../reading/report.ts";
import type { RequiredPage } from "../../reading/required-page.ts";
import { normalizeForSearch } from "../../search/text.ts";
import { userTextMatches } from "../data/dialect.ts";
import type { Db } from "../data/db.ts";
import {
  activeAccount,
  confirmedCondition,
  holdsRole,
  loadAccessData,
  mustReadCondition,
  principalsOf,
  roleNamesOf,
  type AccessData,
} from "./audience.ts";
import { confirmationsOf } from "./confirmations.ts";
import { readingManifest } from "./manifest.ts";
import { tallies } from "./tallies.ts";

/** The required pages `viewer` may open, in the build's order. */
export function reportPagesFor(viewer: Principal): RequiredPage[] {
  return readingManifest().pages.filter((page) => {
    const route = findRoute(page.path);
    return route !== undefined && decideAccess(route, viewer) === "allow";
  });
}

/** What the list reads: one page and version, the filter's conditions, the roles to name people's roles. */
export interface PeopleQuery {
  page: RequiredPage;
  version: number;
  where: SQL;
}

export type ReportResolution = { ok: true; query: PeopleQuery | null; access: AccessData } | { ok: false; error: string };

/**
 * The page, version and conditions a filter names for `viewer`. A page they may not open is
 * refused exactly like an unknown one, so the answer says nothing about it.
 */
export async function resolveReportFilter(db: Db, viewer: Principal, filter: ReadingReportFilter): Promise<ReportResolution> {
  const visible = reportPagesFor(viewer);
  const access = await loadAccessData(db);
  const page = filter.pagina === undefined ? visible[0] : visible.find((candidate) => candidate.path === filter.pagina);
  if (!page)
    return filter.pagina === undefined ? { ok: true, query: null, access } : { ok: false, error: "Página não encontrada no relatório." };
  const version = filter.versao ?? page.version;
  if (version > page.version) return { ok: false, error: `Esta página está na versão ${page.version}.` };
  const conditions: SQL[] = [mustReadCondition(page, access)];
  if (filter.perfil) {
    const role = access.roles.find((candidate) => candidate.name === filter.perfil);
    if (!role) return { ok: false, error: "Perfil não encontrado." };
    conditions.push(holdsRole(role.id));
  }
  const confirmed = confirmedCondition(page.path, version);
  if (filter.situacao === "confirmada") conditions.push(confirmed);
  if (filter.situacao === "pendente") conditions.push(not(confirmed));
  const needle = normalizeForSearch((filter.busca ?? "").trim());
  if (needle) conditions.push(userTextMatches(needle));
  return { ok: true, query: { page, version, where: and(...conditions)! }, access };
}

/** Up to `limit` people of the list after `after` (an e-mail), in e-mail order. */
export async function readPeople(db: Db, query: PeopleQuery, after: string | undefined, limit: number): Promise<ReportPerson[]> {
  const rc = readingConfirmations;
  const newest = sql`from ${rc} where ${rc.userId} = ${users.id} and ${rc.pagePath} = ${query.page.path} order by ${rc.version} desc limit 1`;
  const rows = await db
    .select({
      id: users.id,
      email: users.email,
      fullName: users.fullName,
      confirmedVersion: sql<number | null>`(select ${rc.version} ${newest})`,
      confirmedAt: sql<number | null>`(select ${rc.confirmedAt} ${newest})`,
    })
    .from(users)
    .where(after === undefined ? query.where : and(query.where, gt(users.email, after)))
    .orderBy(asc(users.email))
    .limit(limit);
  const names = await roleNamesOf(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => {
    const confirmada = row.confirmedVersion === null ? null : Number(row.confirmedVersion);
    return {
      id: row.id,
      nome: row.fullName,
      email: row.email,
      perfis: names.get(row.id) ?? [],
      confirmada,
      confirmadaEm: row.confirmedAt === null ? null : Number(row.confirmedAt),
      pendente: confirmada === null || confirmada < query.version,
    };
  });
}

/** Totals never counted before and not ready within FIRST_WAIT_MS: the browser asks again. */
const COUNTING = {
  ok: false,
  status: 503,
  error: "Calculando os totais do relatório pela primeira vez. Aguarde alguns segundos…",
} as const;

/** The report as `viewer` sees it: totals of every page they may open, and one page of people. */
export async function readingReport(
  db: Db,
  viewer: Principal,
  filter: ReadingReportFilter,
  timeZone: string,
): Promise<{ ok: true; report: ReadingReport } | { ok: false; status: 400 | 503; error: string }> {
  const resolved = await resolveReportFilter(db, viewer, filter);
  if (!resolved.ok) return { ok: false, status: 400, error: resolved.error };
  const { query, access } = resolved;
  const pages = reportPagesFor(viewer);
  const current = await tallies(
    db,
    pages.map((page) => ({ page, version: page.version })),
  );
  if (!current) return COUNTING;
  const perfis = access.roles.map((role) => ({ nome: role.name, rotulo: roleLabel(role.name) }));
  if (!query)
    return { ok: true, report: { paginas: current, selecionada: null, versoes: [], perfis, pessoas: [], proximo: null, fuso: timeZone } };
  const older = query.version === query.page.version ? null : await tallies(db, [{ page: query.page, version: query.version }]);
  if (query.version !== query.page.version && !older) return COUNTING;
  const [selecionada] = older ?? current.filter((tally) => tally.pagina === query.page.path);
  const found = await readPeople(db, query, filter.apos, REPORT_PAGE_SIZE + 1);
  const pessoas = found.slice(0, REPORT_PAGE_SIZE);
  return {
    ok: true,
    report: {
      paginas: current,
      selecionada: selecionada ?? null,
      versoes: query.page.versions.map((version) => version.version),
      perfis,
      pessoas,
      proximo: found.length > REPORT_PAGE_SIZE ? pessoas.at(-1)!.email : null,
      fuso: timeZone,
    },
  };
}

/** One person's pending pages among those `viewer` may open; null when the person is unknown or inactive. */
export async function personReading(db: Db, viewer: Principal, userId: string): Promise<PersonReading | null> {
  const [person] = await db
    .select({ id: users.id, email: users.email, fullName: users.fullName })
    .from(users)
    .where(and(eq(users.id, userId), activeAccount));
  if (!person) return null;
  const principal = (await principalsOf(db, [person])).get(person.id)!;
  const status = readingStatusOf(reportPagesFor(viewer), principal, await confirmationsOf(db, person.id));
  // Someone who must read none of the viewer's pages is not in the viewer's report at all.
  if (status.paginas.length === 0) return null;
  const pending = status.paginas.filter((item) => (item.confirmada ?? 0) < item.versao);
  return {
    id: person.id,
    nome: person.fullName,
    email: person.email,
    pendentes: pending.map((item) => ({
      pagina: item.pagina,
      titulo: item.titulo,
      versao: item.versao,
      resumo: item.resumo,
      confirmada: item.confirmada,
    })),
    confirmadas: status.paginas.length - pending.length,
  };
}
