/**
 * The admin panel's user list, searched and paged on the server: accent- and case-insensitive search
 * over name, e-mail and role (with the normaliser the FAQ, glossary and templates use), a role
 * filter, 50 per page and the number of matching users per role; each row says whether the user has
 * a second factor and whether their roles require one.
 *
 * Counting, ordering and paging are SQL (count, grouped counts, LIMIT/OFFSET). A search matches
 * every user's name and e-mail in JS against folded text kept per distinct string (SQLite has no
 * accent folding; the normaliser is too slow to run per row per request); the matches' e-mails (or
 * the others', when fewer) then become one more condition of those same queries. The names and
 * e-mails are kept between searches until the database's change counter moves (the one the session
 * cache follows), so an edit by the panel, the CLI or another instance shows in the next search.
 */
import { and, asc, eq, inArray, not, sql, type SQL } from "drizzle-orm";
import { roles, userRoles, users } from "../../../../db/schema/index.ts";
import { roleLabel } from "../../admin/role-labels.ts";
import type { UserListPage } from "../../admin/types.ts";
import { normalizeForSearch } from "../../search/text.ts";
import { inJsonList } from "../data/dialect.ts";
import type { Db } from "../data/db.ts";
import { changeCounter } from "../data/change-counter.ts";
import type { TwoFactorSettings } from "../config/two-factor.ts";
import { rolesRequireTwoFactor } from "../../auth/two-factor-policy.ts";
import { enrolledAmong } from "../auth/two-factor/enrolment.ts";

export const USERS_PER_PAGE = 50;
const MAX_FOLDS = 200_000;
const folds = new Map<string, string>();

function fold(text: string): string {
  let folded = folds.get(text);
  if (folded === undefined) {
    if (folds.size >= MAX_FOLDS) folds.clear();
    folded = normalizeForSearch(text);
    folds.set(text, folded);
  }
  return folded;
}

type UserText = { id: string; email: string; fullName: string };
const userTextCache = new WeakMap<Db, { changes: () => Promise<string | number>; version?: string | number; texts?: UserText[] }>();

/** Every user's id, e-mail and name, read again only when the change counter has moved. */
async function userTexts(db: Db): Promise<UserText[]> {
  let entry = userTextCache.get(db);
  if (!entry) userTextCache.set(db, (entry = { changes: changeCounter(db) }));
  // Read before the rows: a write landing in between leaves the copy tagged older, so it is reread.
  const version = await entry.changes();
  if (entry.texts && entry.version === version) return entry.texts;
  const texts = await db.select({ id: users.id, email: users.email, fullName: users.fullName }).from(users);
  entry.version = version;
  entry.texts = texts;
  return texts;
}

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

  const matching = needle ? await searchCondition(db, needle, allRoles) : undefined;
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
  const grouped = await db
    .select({ id: userRoles.roleId, n: sql<number>`count(*)` })
    .from(userRoles)
    .innerJoin(users, eq(users.id, userRoles.userId))
    .where(matching)
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
 * Users whose name or e-mail contains the needle, or who hold a role whose name or Portuguese label
 * does, as a condition on `users`. The matching e-mails (unique), or the others when fewer, go back
 * to SQL as one JSON parameter.
 */
async function searchCondition(db: Db, needle: string, allRoles: RoleRef[]): Promise<SQL> {
  const roleHits = allRoles
    .filter((role) => fold(role.name).includes(needle) || fold(roleLabel(role.name)).includes(needle))
    .map((role) => role.id);
  const holders = new Set<string>();
  if (roleHits.length) {
    const links = await db.select({ userId: userRoles.userId }).from(userRoles).where(inArray(userRoles.roleId, roleHits));
    for (const { userId } of links) holders.add(userId);
  }
  const texts = await userTexts(db);
  const matched = new Set(
    texts
      .filter((user) => fold(user.fullName).includes(needle) || fold(user.email).includes(needle) || holders.has(user.id))
      .map((user) => user.email),
  );
  if (matched.size <= texts.length / 2) return inJsonList(users.email, [...matched]);
  return not(
    inJsonList(
      users.email,
      texts.map((user) => user.email).filter((email) => !matched.has(email)),
    ),
  );
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
