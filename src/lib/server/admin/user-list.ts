/**
 * The admin panel's user list, searched and paged on the server: accent- and case-insensitive search
 * over name, e-mail and role (with the normaliser the FAQ, glossary and templates use), a role
 * filter, 50 per page and the number of matching users per role; each row says whether the user has
 * a second factor and whether their roles require one.
 *
 * Counting, ordering and paging are SQL (count, grouped counts, LIMIT/OFFSET over the
 * (created_at, id) index). The text search is an index read on both engines (userTextMatches: a
 * trigram table on SQLite, a trigram index on PostgreSQL), so no request reads every user and no
 * copy of the users is kept in memory.
 */
import { and, asc, eq, inArray, sql, type SQL } from "drizzle-orm";
import { roles, userRoles, users } from "../../../../db/schema/index.ts";
import { roleLabel } from "../../admin/role-labels.ts";
import type { UserListPage } from "../../admin/types.ts";
import { normalizeForSearch } from "../../search/text.ts";
import { userTextMatches } from "../data/dialect.ts";
import type { Db } from "../data/db.ts";
import type { TwoFactorSettings } from "../config/two-factor.ts";
import { rolesRequireTwoFactor } from "../../auth/two-factor-policy.ts";
import { enrolledAmong } from "../auth/two-factor/enrolment.ts";

export const USERS_PER_PAGE = 50;

export interface UserListQuery {
  search: string;
  /** Role name; empty for every role. */
  role: string;
  /** 1-based. */
  page: number;
}

type RoleRef = { id: number; name: string };

export async function listUsersPage(db: Db, query: UserListQuery, twoFactor: TwoFactorSettings): Promise<UserListPage> {
  const needle = normalizeForSearch(query.search.trim());
  const allRoles: RoleRef[] = await db.select({ id: roles.id, name: roles.name }).from(roles);
  const roleName = new Map(allRoles.map((role) => [role.id, role.name]));
  const roleId = query.role ? (allRoles.find((role) => role.name === query.role)?.id ?? -1) : null;

  const matching = needle ? searchCondition(needle, allRoles) : undefined;
  const holdsRole =
    roleId === null ? undefined : sql`exists (select 1 from user_roles ur where ur.user_id = ${users.id} and ur.role_id = ${roleId})`;
  const listed = and(matching, holdsRole);
  const countUsers = async (where: SQL | undefined) =>
    (
      await db
        .select({ n: sql<number>`count(*)` })
        .from(users)
        .where(where)
    )[0]!.n;

  // Per-role counts follow the search (not the role filter), so each choice shows what it would list.
  const searchTotal = await countUsers(matching);
  const total = roleId === null ? searchTotal : await countUsers(listed);
  // Without a search every link counts (user_roles' own index); with one, only the matches' links.
  const grouped = matching
    ? await db
        .select({ id: userRoles.roleId, n: sql<number>`count(*)` })
        .from(userRoles)
        .innerJoin(users, eq(users.id, userRoles.userId))
        .where(matching)
        .groupBy(userRoles.roleId)
    : await db
        .select({ id: userRoles.roleId, n: sql<number>`count(*)` })
        .from(userRoles)
        .groupBy(userRoles.roleId);

  const pages = Math.max(1, Math.ceil(total / USERS_PER_PAGE));
  const page = Math.min(Math.max(1, query.page), pages);
  const rows = await db
    .select({
      id: users.id,
      email: users.email,
      fullName: users.fullName,
      createdAt: users.createdAt,
      provisionedAt: users.provisionedAt,
      deactivatedAt: users.deactivatedAt,
    })
    .from(users)
    .where(listed)
    .orderBy(asc(users.createdAt), asc(users.id))
    .limit(USERS_PER_PAGE)
    .offset((page - 1) * USERS_PER_PAGE);
  const ids = rows.map((row) => row.id);
  const held = await rolesOf(db, ids);
  const enrolled = await enrolledAmong(db, ids);
  const twoFactorOn = twoFactor.key !== null;
  return {
    users: rows.map(({ provisionedAt, deactivatedAt, ...row }) => {
      const names = (held.get(row.id) ?? []).sort();
      const twoFactorOf = {
        enrolled: enrolled.has(row.id),
        required: twoFactorOn && rolesRequireTwoFactor(names, twoFactor.requiredRoles),
      };
      return {
        ...row,
        roles: names,
        twoFactor: twoFactorOf,
        directoryManaged: provisionedAt !== null,
        deactivated: deactivatedAt !== null,
      };
    }),
    twoFactorOn,
    total,
    page,
    pages,
    perPage: USERS_PER_PAGE,
    counts: { all: searchTotal, byRole: Object.fromEntries(grouped.map((row) => [roleName.get(row.id)!, row.n])) },
  };
}

/**
 * Users whose name or e-mail contains the needle (an index read: userTextMatches), or who hold a
 * role whose name or Portuguese label does, as a condition on `users`.
 */
function searchCondition(needle: string, allRoles: RoleRef[]): SQL {
  const roleHits = allRoles
    .filter((role) => normalizeForSearch(role.name).includes(needle) || normalizeForSearch(roleLabel(role.name)).includes(needle))
    .map((role) => role.id);
  const byText = userTextMatches(needle);
  if (!roleHits.length) return byText;
  // One id list from two index reads (role holders, text matches): an OR of the two would be a scan.
  return sql`${users.id} in (select user_id from user_roles where ${inArray(sql`role_id`, roleHits)} union select ${users.id} from ${users} where ${byText})`;
}

async function rolesOf(db: Db, userIds: string[]): Promise<Map<string, string[]>> {
  const held = new Map<string, string[]>();
  if (!userIds.length) return held;
  const rows = await db
    .select({ userId: userRoles.userId, name: roles.name })
    .from(userRoles)
    .innerJoin(roles, eq(roles.id, userRoles.roleId))
    .where(inArray(userRoles.userId, userIds));
  for (const { userId, name } of rows) held.set(userId, [...(held.get(userId) ?? []), name]);
  return held;
}
