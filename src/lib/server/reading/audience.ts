/**
 * Who must read a required page, as a condition on `users`: the same rule as mustRead (the gate's
 * decideAccess, then the page's roles) written in SQL, so the report and the digest read people
 * from indexes instead of building every principal. Active accounts only: a confirmed e-mail and
 * not deactivated by the directory.
 */
import { and, eq, inArray, isNotNull, isNull, sql, type SQL } from "drizzle-orm";
import { pageAudience, pages, readingConfirmations, rolePermissions, roles, userRoles, users } from "../../../../db/schema/index.ts";
import { findRoute, type Principal } from "../../routes.ts";
import type { RequiredPageSource } from "../../reading/required-page.ts";
import { inJsonList } from "../data/dialect.ts";
import type { Db } from "../data/db.ts";

export interface RoleRow {
  id: number;
  name: string;
  isSystem: boolean;
}

/** The roles and the page grants the audience rule reads, loaded once per request or run. */
export interface AccessData {
  roles: RoleRow[];
  /** Route path → ids of the roles whose page permission opens it. */
  grants: Map<string, number[]>;
}

export async function loadAccessData(db: Db): Promise<AccessData> {
  const roleRows = await db.select({ id: roles.id, name: roles.name, isSystem: roles.isSystem }).from(roles).orderBy(roles.id);
  const granted = await db
    .select({ roleId: rolePermissions.roleId, path: pages.path })
    .from(rolePermissions)
    .innerJoin(pages, eq(pages.id, rolePermissions.pageId))
    .where(eq(rolePermissions.canAccess, true));
  const grants = new Map<string, number[]>();
  for (const { roleId, path } of granted) grants.set(path, [...(grants.get(path) ?? []), roleId]);
  return { roles: roleRows, grants };
}

const holdsOneOf = (ids: readonly number[]): SQL =>
  ids.length
    ? sql`exists (select 1 from ${userRoles} where ${userRoles.userId} = ${users.id} and ${inArray(userRoles.roleId, [...ids])})`
    : sql`1 = 0`;

/** An account that may sign in. */
export const activeAccount: SQL = and(isNotNull(users.emailConfirmedAt), isNull(users.deactivatedAt))!;

/**
 * Who must read `page`, as role ids: an active account holding one of `opening` (null: every signed-in
 * person may open the page) and one of `asked` (null: the page asks everyone who may open it); null
 * when the route is unknown (nobody). Pages with equal audiences are counted together.
 */
export interface Audience {
  opening: number[] | null;
  asked: number[] | null;
}

export function audienceOf(page: RequiredPageSource, access: AccessData): Audience | null {
  const route = findRoute(page.path);
  if (!route) return null;
  let opening: number[] | null = null;
  if (route.access.kind === "roles") {
    const allowed = route.access.roles as readonly string[];
    opening = access.roles.filter((role) => role.isSystem && allowed.includes(role.name)).map((role) => role.id);
    if (route.access.grantable) opening.push(...(access.grants.get(page.path) ?? []));
    opening.sort((a, b) => a - b);
  }
  let asked: number[] | null = null;
  if (page.roles) {
    const wanted = page.roles as readonly string[];
    asked = access.roles.filter((role) => role.isSystem && wanted.includes(role.name)).map((role) => role.id);
  }
  return { opening, asked };
}

/** The people who must read `page`, as a condition on `users` (nobody when the route is unknown). */
export function mustReadCondition(page: RequiredPageSource, access: AccessData): SQL {
  return audienceCondition(audienceOf(page, access));
}

/** The condition on `users` of an audience (audienceOf). */
export function audienceCondition(audience: Audience | null): SQL {
  if (!audience) return sql`1 = 0`;
  const conditions: SQL[] = [activeAccount];
  if (audience.opening) conditions.push(holdsOneOf(audience.opening));
  if (audience.asked) conditions.push(holdsOneOf(audience.asked));
  return and(...conditions)!;
}

/** Confirmed `version` of `pagePath` or a newer one (an index lookup per person). */
export function confirmedCondition(pagePath: string, version: number): SQL {
  return sql`exists (select 1 from ${readingConfirmations} where ${readingConfirmations.userId} = ${users.id} and ${readingConfirmations.pagePath} = ${pagePath} and ${readingConfirmations.version} >= ${version})`;
}

/** Holders of one role (by id). */
export function holdsRole(roleId: number): SQL {
  return holdsOneOf([roleId]);
}

/** The principal the gate would build for each person (the session lookup's rule), keyed by id. */
export async function principalsOf(
  db: Db,
  people: readonly { id: string; email: string; fullName: string }[],
): Promise<Map<string, Principal>> {
  const ids = people.map((person) => person.id);
  const principals = new Map<string, Principal>(
    people.map((person) => [
      person.id,
      { userId: person.id, email: person.email, name: person.fullName, roles: [], grantedPaths: new Set() },
    ]),
  );
  if (!ids.length) return principals;
  const held = await db
    .select({ userId: userRoles.userId, name: roles.name })
    .from(userRoles)
    .innerJoin(roles, and(eq(roles.id, userRoles.roleId), eq(roles.isSystem, true)))
    .where(inJsonList(userRoles.userId, ids));
  for (const { userId, name } of held) (principals.get(userId)!.roles as string[]).push(name);
  const granted = await db
    .selectDistinct({ userId: userRoles.userId, path: pages.path })
    .from(userRoles)
    .innerJoin(rolePermissions, and(eq(rolePermissions.roleId, userRoles.roleId), eq(rolePermissions.canAccess, true)))
    .innerJoin(pages, eq(pages.id, rolePermissions.pageId))
    .where(inJsonList(userRoles.userId, ids));
  for (const { userId, path } of granted) (principals.get(userId)!.grantedPaths as Set<string>).add(path);
  // Limited roles and the admin panel's restrictions, as the session lookup reads them.
  const limits = await db
    .select({ userId: userRoles.userId, limited: roles.accessLimited })
    .from(userRoles)
    .innerJoin(roles, eq(roles.id, userRoles.roleId))
    .where(inJsonList(userRoles.userId, ids));
  const holdsUnlimited = new Set(limits.filter((row) => !row.limited).map((row) => row.userId));
  const holdsAny = new Set(limits.map((row) => row.userId));
  const overridden = new Set(
    (await db.select({ path: pages.path }).from(pages).where(eq(pages.audienceOverride, true))).map((row) => row.path),
  );
  const audience = await db
    .selectDistinct({ userId: userRoles.userId, path: pages.path })
    .from(userRoles)
    .innerJoin(pageAudience, eq(pageAudience.roleId, userRoles.roleId))
    .innerJoin(pages, and(eq(pages.id, pageAudience.pageId), eq(pages.audienceOverride, true)))
    .where(inJsonList(userRoles.userId, ids));
  const audienceOf = new Map<string, Set<string>>();
  for (const { userId, path } of audience) audienceOf.set(userId, (audienceOf.get(userId) ?? new Set()).add(path));
  for (const [userId, principal] of principals) {
    const limited = holdsAny.has(userId) && !holdsUnlimited.has(userId);
    principals.set(userId, { ...principal, limited, overridden, audiencePaths: audienceOf.get(userId) ?? new Set() });
  }
  return principals;
}

/** Every role name each person holds (system and custom), sorted, keyed by id. */
export async function roleNamesOf(db: Db, ids: readonly string[]): Promise<Map<string, string[]>> {
  const names = new Map<string, string[]>(ids.map((id) => [id, []]));
  if (!ids.length) return names;
  const rows = await db
    .select({ userId: userRoles.userId, name: roles.name })
    .from(userRoles)
    .innerJoin(roles, eq(roles.id, userRoles.roleId))
    .where(inJsonList(userRoles.userId, ids));
  for (const { userId, name } of rows) names.get(userId)?.push(name);
  for (const list of names.values()) list.sort();
  return names;
}
