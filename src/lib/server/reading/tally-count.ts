/**
 * Counting the required-reading report's totals (tallies.ts keeps them; the worker thread and the
 * PostgreSQL path both call countTallies). Pages with the same audience (audience.ts) share their
 * queries: the audience once, then each reader's newest confirmed version of each page, grouped —
 * so any version's total is a sum (confirmed that version or a newer one).
 */
import { count, eq, inArray, sql } from "drizzle-orm";
import { readingConfirmations, userRoles, users } from "../../../../db/schema/index.ts";
import { roleLabel } from "../../admin/role-labels.ts";
import { percentOf, type PageTally } from "../../reading/report.ts";
import type { RequiredPage } from "../../reading/required-page.ts";
import type { Db } from "../data/db.ts";
import { audienceCondition, audienceOf, type AccessData } from "./audience.ts";

/** One page's counts: its audience, and how many of it confirmed each version as their newest. */
export interface PageCounts {
  audience: number;
  /** [role id, holders in the audience] */
  audienceByRole: [number, number][];
  /** [newest version confirmed, people of the audience] */
  newest: [number, number][];
  /** [role id, newest version confirmed, holders of the role in the audience] */
  newestByRole: [number, number, number][];
}

/** Every required page's counts at one moment (plain data: it crosses from the worker thread). */
export interface TallyCounts {
  countedAt: number;
  roles: { id: number; name: string }[];
  pages: Record<string, PageCounts>;
}

export interface TallyRequest {
  id: number;
}

export type TallyReply = { id: number; ok: true; counts: TallyCounts } | { id: number; ok: false; message: string };

/** Counts every page of `pages` now: per group of pages with one audience, four grouped queries. */
export async function countTallies(db: Db, pages: readonly RequiredPage[], access: AccessData, now = Date.now()): Promise<TallyCounts> {
  const groups = new Map<string, { condition: ReturnType<typeof audienceCondition>; paths: string[] }>();
  for (const page of pages) {
    const audience = audienceOf(page, access);
    const key = JSON.stringify(audience);
    const group = groups.get(key);
    if (group) group.paths.push(page.path);
    else groups.set(key, { condition: audienceCondition(audience), paths: [page.path] });
  }
  const counted: Record<string, PageCounts> = {};
  for (const { condition, paths } of groups.values()) {
    const [all] = await db.select({ n: count() }).from(users).where(condition);
    const byRole = await db
      .select({ roleId: userRoles.roleId, n: count() })
      .from(userRoles)
      .innerJoin(users, eq(users.id, userRoles.userId))
      .where(condition)
      .groupBy(userRoles.roleId);
    // Each person's newest confirmed version of each page (the primary key's order: no sort).
    const newest = db
      .select({
        userId: readingConfirmations.userId,
        pagePath: readingConfirmations.pagePath,
        version: sql<number>`max(${readingConfirmations.version})`.as("newest_version"),
      })
      .from(readingConfirmations)
      .where(inArray(readingConfirmations.pagePath, paths))
      .groupBy(readingConfirmations.userId, readingConfirmations.pagePath)
      .as("newest");
    const confirmed = await db
      .select({ pagePath: newest.pagePath, version: newest.version, n: count() })
      .from(newest)
      .innerJoin(users, eq(users.id, newest.userId))
      .where(condition)
      .groupBy(newest.pagePath, newest.version);
    const confirmedByRole = await db
      .select({ pagePath: newest.pagePath, version: newest.version, roleId: userRoles.roleId, n: count() })
      .from(newest)
      .innerJoin(users, eq(users.id, newest.userId))
      .innerJoin(userRoles, eq(userRoles.userId, newest.userId))
      .where(condition)
      .groupBy(newest.pagePath, newest.version, userRoles.roleId);
    for (const pagePath of paths)
      counted[pagePath] = {
        audience: Number(all?.n ?? 0),
        audienceByRole: byRole.map((row) => [row.roleId, Number(row.n)]),
        newest: [],
        newestByRole: [],
      };
    for (const row of confirmed) counted[row.pagePath]!.newest.push([Number(row.version), Number(row.n)]);
    for (const row of confirmedByRole) counted[row.pagePath]!.newestByRole.push([row.roleId, Number(row.version), Number(row.n)]);
  }
  return { countedAt: now, roles: access.roles.map(({ id, name }) => ({ id, name })), pages: counted };
}

/** One page and version's tally from the counts: confirmed means this version or a newer one. */
export function tallyOf(counts: TallyCounts, page: RequiredPage, version: number): PageTally {
  const pageCounts = counts.pages[page.path] ?? { audience: 0, audienceByRole: [], newest: [], newestByRole: [] };
  const confirmadas = pageCounts.newest.reduce((sum, [newest, n]) => (newest >= version ? sum + n : sum), 0);
  const roleName = new Map(counts.roles.map((role) => [role.id, role.name]));
  return {
    pagina: page.path,
    titulo: page.title,
    versao: version,
    versaoAtual: page.version,
    publico: pageCounts.audience,
    confirmadas,
    pendentes: pageCounts.audience - confirmadas,
    percentual: percentOf(confirmadas, pageCounts.audience),
    perfis: pageCounts.audienceByRole
      .map(([roleId, publico]) => ({
        perfil: roleName.get(roleId) ?? String(roleId),
        rotulo: roleLabel(roleName.get(roleId) ?? ""),
        publico,
        confirmadas: pageCounts.newestByRole.reduce((sum, [role, newest, n]) => (role === roleId && newest >= version ? sum + n : sum), 0),
      }))
      .sort((a, b) => a.rotulo.localeCompare(b.rotulo, "pt-BR")),
    calculadoEm: counts.countedAt,
  };
}
