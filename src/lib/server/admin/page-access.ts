/**
 * 'Quem pode abrir esta página': the audience an admin sets for a page in the panel, without a build.
 * A restriction replaces the route table's (or the frontmatter's) rule with a chosen set of roles;
 * restoring the default removes it. Every change names the version it read and is one conditional
 * update, so of two admins changing the same page at once the later one is told (409), never lost.
 * The gate sees the change at its next request on every instance: the tables sit behind the change
 * counter that empties the session cache (see sessions/cache.ts).
 */
import { and, eq, inArray, ne } from "drizzle-orm";
import { pageAudience, pages, roles } from "../../../../db/schema/index.ts";
import { ADMIN_ROLE, findRoute, pageGroup, restrictablePages, type RouteRule } from "../../routes.ts";
import type { PageAccessEntry } from "../../admin/types.ts";
import { writeAuditLog } from "../audit/audit.ts";
import type { Db, Tx } from "../data/db.ts";
import { refuse, type Actor, type AdminResult } from "./result.ts";

export const CONCURRENT_CHANGE_MESSAGE =
  "Outra pessoa alterou o acesso a esta página enquanto você editava. Recarregue a página para ver a versão atual e tente de novo.";
export const UNKNOWN_PAGE_MESSAGE = "Página não encontrada ou sem regra de acesso ajustável";

/** The route table's (or frontmatter's) audience of a page, as role names; `null` means everyone signed in. */
export function defaultAudience(route: RouteRule): string[] | null {
  return route.access.kind === "roles" ? [...route.access.roles] : null;
}

/** Role names of each overridden page, sorted (one read of the audience table). */
async function overrideRoles(db: Db | Tx): Promise<Map<string, string[]>> {
  const rows = await db
    .select({ path: pages.path, role: roles.name })
    .from(pageAudience)
    .innerJoin(pages, and(eq(pages.id, pageAudience.pageId), eq(pages.audienceOverride, true)))
    .innerJoin(roles, eq(roles.id, pageAudience.roleId));
  const byPath = new Map<string, string[]>();
  for (const { path, role } of rows) byPath.set(path, [...(byPath.get(path) ?? []), role].sort());
  return byPath;
}

/** Every page whose audience the panel may set, in route-table order, with its default and current audience. */
export async function listPageAccess(db: Db): Promise<PageAccessEntry[]> {
  const rows = new Map(
    (await db.select({ path: pages.path, override: pages.audienceOverride, version: pages.accessVersion }).from(pages)).map((row) => [
      row.path,
      row,
    ]),
  );
  const overrides = await overrideRoles(db);
  return restrictablePages().flatMap((route) => {
    const row = rows.get(route.path);
    if (!row) return [];
    return [
      {
        path: route.path,
        name: route.name,
        group: pageGroup(route)!,
        defaultRoles: defaultAudience(route),
        roles: row.override ? (overrides.get(route.path) ?? []) : null,
        version: row.version,
      },
    ];
  });
}

/** The audience written in the audit row: the chosen roles, or the default's. */
function describe(route: RouteRule, chosen: string[] | null) {
  return chosen
    ? { restrita: true, perfis: chosen }
    : { restrita: false, perfis: defaultAudience(route) ?? ["Qualquer usuário conectado"] };
}

/**
 * Sets (`roles`) or restores (`roles: null`) the audience of `path`, if the page is still at
 * `version`. The admin role is added to every chosen set (an empty set means admins only). Refused (4xx,
 * nothing changed, audited): an unknown page or role, a version another admin has moved on from.
 */
export async function setPageAccess(
  db: Db,
  input: { path: string; roles: readonly string[] | null; version: number },
  actor: Actor,
): Promise<AdminResult<{ version: number }>> {
  const route = findRoute(input.path);
  const refusal = async (status: number, error: string, field?: string) => {
    await writeAuditLog(db, {
      ...actor,
      actionType: "admin_page_access_refused",
      result: "blocked",
      details: { path: input.path.slice(0, 200), roles: input.roles?.slice(0, 50) ?? null, motivo: error },
    });
    return refuse(status, error, field);
  };
  if (!route || pageGroup(route) === null) return refusal(404, UNKNOWN_PAGE_MESSAGE, "path");
  // The admin role is always part of a chosen audience (the dialog shows it ticked and fixed): no one locks the admins out.
  const wanted = input.roles === null ? null : [...new Set([ADMIN_ROLE, ...input.roles])].sort();
  const outcome = await db.transaction(async (tx) => {
    const known = wanted?.length ? await tx.select({ id: roles.id, name: roles.name }).from(roles).where(inArray(roles.name, wanted)) : [];
    const unknown = wanted?.filter((name) => !known.some((role) => role.name === name)) ?? [];
    if (unknown.length) return { refused: [400, `Perfil desconhecido: ${unknown.slice(0, 5).join(", ")}`] as const };
    const before = (await overrideRoles(tx)).get(route.path);
    const page = (await tx.select({ override: pages.audienceOverride }).from(pages).where(eq(pages.path, route.path)))[0];
    if (!page) return { refused: [404, UNKNOWN_PAGE_MESSAGE] as const };
    // The check and the write in one statement: only the version this admin read may be replaced.
    const updated = await tx
      .update(pages)
      .set({ audienceOverride: wanted !== null, accessVersion: input.version + 1 })
      .where(and(eq(pages.path, route.path), eq(pages.accessVersion, input.version)))
      .returning({ id: pages.id });
    const pageId = updated[0]?.id;
    if (pageId === undefined) return { refused: [409, CONCURRENT_CHANGE_MESSAGE] as const };
    await tx.delete(pageAudience).where(eq(pageAudience.pageId, pageId));
    for (const role of known) await tx.insert(pageAudience).values({ pageId, roleId: role.id });
    await writeAuditLog(tx, {
      ...actor,
      actionType: "admin_page_access_updated",
      result: "success",
      details: {
        path: route.path,
        before: describe(route, page.override ? (before ?? []) : null),
        after: describe(route, wanted),
      },
    });
    return { version: input.version + 1, refused: undefined };
  });
  if ("refused" in outcome && outcome.refused) {
    const [status, error] = outcome.refused;
    return refusal(status, error, status === 409 ? undefined : "roles");
  }
  return { ok: true, value: { version: outcome.version! } };
}

/**
 * Pages a role is the only audience of, besides the admin role that every chosen audience holds (a role
 * that cannot be deleted while they are restricted to it: the page would silently become admins-only).
 */
export async function pagesOnlyOpenTo(tx: Tx, roleId: number): Promise<string[]> {
  const overrides = await tx
    .select({ path: pages.path, roleId: pageAudience.roleId })
    .from(pageAudience)
    .innerJoin(pages, and(eq(pages.id, pageAudience.pageId), eq(pages.audienceOverride, true)))
    .innerJoin(roles, and(eq(roles.id, pageAudience.roleId), ne(roles.name, ADMIN_ROLE)));
  const byPath = new Map<string, number[]>();
  for (const row of overrides) byPath.set(row.path, [...(byPath.get(row.path) ?? []), row.roleId]);
  return [...byPath].filter(([, ids]) => ids.length === 1 && ids[0] === roleId).map(([path]) => path);
}
