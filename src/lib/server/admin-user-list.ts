/**
 * The admin panel's user list, searched and paged on the server: accent- and case-insensitive search
 * over name, e-mail and role (with the normaliser the FAQ, glossary and templates use), a role
 * filter, 50 per page and the number of matching users per role.
 *
 * Without a search everything is SQL (count, LIMIT/OFFSET, grouped counts). With one, only name and
 * e-mail are read for every user, unsorted, and matched in JS against folded text kept per distinct
 * string (SQLite has no accent folding; the normaliser is too slow to run per row per request); the
 * rows, list order, role links and counts are then read and worked out for the matches only.
 */
import { asc, eq, inArray, sql } from "drizzle-orm";
import { roles, userRoles, users } from "../../../db/schema/index.ts";
import { roleLabel } from "../admin/role-labels.ts";
import type { UserListPage } from "../admin/types.ts";
import { normalizeForSearch } from "../search-text.ts";
import type { Db } from "./db.ts";

export const USERS_PER_PAGE = 50;
const MAX_FOLDS = 200_000;
/** Above this many matches, rows and role links are read whole rather than by a list of bound parameters. */
const BY_ID_LIMIT = 500;
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

export interface UserListQuery {
  search: string;
  /** Role name; empty for every role. */
  role: string;
  /** 1-based. */
  page: number;
}

type Row = { id: string; email: string; fullName: string; createdAt: number };
type RoleRef = { id: number; name: string };

const byListOrder = (a: Row, b: Row) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

export async function listUsersPage(db: Db, query: UserListQuery): Promise<UserListPage> {
  const needle = normalizeForSearch(query.search.trim());
  const allRoles: RoleRef[] = await db.select({ id: roles.id, name: roles.name }).from(roles);
  const roleName = new Map(allRoles.map((role) => [role.id, role.name]));
  const roleId = query.role ? (allRoles.find((role) => role.name === query.role)?.id ?? -1) : null;

  const pick = async (total: number, counts: Map<number, number>, searchTotal: number, read: (offset: number) => Promise<Row[]>) => {
    const pages = Math.max(1, Math.ceil(total / USERS_PER_PAGE));
    const page = Math.min(Math.max(1, query.page), pages);
    const rows = await read((page - 1) * USERS_PER_PAGE);
    const held = await rolesOf(
      db,
      rows.map((row) => row.id),
    );
    return {
      users: rows.map((row) => ({ ...row, roles: (held.get(row.id) ?? []).sort() })),
      total,
      page,
      pages,
      perPage: USERS_PER_PAGE,
      counts: { all: searchTotal, byRole: Object.fromEntries([...counts].map(([id, n]) => [roleName.get(id)!, n])) },
    };
  };

  if (needle) {
    const matched = await searchUsers(db, needle, allRoles);
    const roleIds = await roleIdsOf(db, matched);
    // Per-role counts follow the search (not the role filter), so each choice shows what it would list.
    const counts = new Map<number, number>();
    for (const user of matched) for (const id of roleIds.get(user.id) ?? []) counts.set(id, (counts.get(id) ?? 0) + 1);
    const listed = roleId === null ? matched : matched.filter((user) => roleIds.get(user.id)?.includes(roleId));
    return pick(listed.length, counts, matched.length, async (offset) => listed.slice(offset, offset + USERS_PER_PAGE));
  }

  const holdsRole =
    roleId === null ? undefined : sql`exists (select 1 from user_roles ur where ur.user_id = users.id and ur.role_id = ${roleId})`;
  const everyone = (await db.select({ n: sql<number>`count(*)` }).from(users))[0]!.n;
  const total =
    roleId === null
      ? everyone
      : (
          await db
            .select({ n: sql<number>`count(*)` })
            .from(users)
            .where(holdsRole)
        )[0]!.n;
  const grouped = await db
    .select({ id: userRoles.roleId, n: sql<number>`count(*)` })
    .from(userRoles)
    .groupBy(userRoles.roleId);
  const counts = new Map(grouped.map((row) => [row.id, row.n] as const));
  return pick(total, counts, everyone, (offset) =>
    db
      .select({ id: users.id, email: users.email, fullName: users.fullName, createdAt: users.createdAt })
      .from(users)
      .where(holdsRole)
      .orderBy(asc(users.createdAt), asc(users.id))
      .limit(USERS_PER_PAGE)
      .offset(offset),
  );
}

/** Users whose name or e-mail contains the needle, or who hold a role whose name or Portuguese label does; in list order. */
async function searchUsers(db: Db, needle: string, allRoles: RoleRef[]): Promise<Row[]> {
  const roleHits = allRoles
    .filter((role) => fold(role.name).includes(needle) || fold(roleLabel(role.name)).includes(needle))
    .map((role) => role.id);
  // Only the two searched columns cross for every user; the e-mail (unique) then identifies the matches.
  const texts = await db.select({ email: users.email, fullName: users.fullName }).from(users);
  const emails = new Set(
    texts.filter((user) => fold(user.fullName).includes(needle) || fold(user.email).includes(needle)).map((user) => user.email),
  );
  if (roleHits.length) {
    const holders = await db
      .select({ email: users.email })
      .from(users)
      .innerJoin(userRoles, eq(userRoles.userId, users.id))
      .where(inArray(userRoles.roleId, roleHits));
    for (const { email } of holders) emails.add(email);
  }
  if (!emails.size) return [];
  const wanted = emails.size > BY_ID_LIMIT ? null : [...emails];
  const rows = await db
    .select({ id: users.id, email: users.email, fullName: users.fullName, createdAt: users.createdAt })
    .from(users)
    .where(wanted ? inArray(users.email, wanted) : undefined);
  return (wanted ? rows : rows.filter((row) => emails.has(row.email))).sort(byListOrder);
}

/** Role ids per user, for the given users only. */
async function roleIdsOf(db: Db, people: Row[]): Promise<Map<string, number[]>> {
  const held = new Map<string, number[]>();
  if (!people.length) return held;
  const wanted = people.length > BY_ID_LIMIT ? null : people.map((user) => user.id);
  const links = await db
    .select({ userId: userRoles.userId, roleId: userRoles.roleId })
    .from(userRoles)
    .where(wanted ? inArray(userRoles.userId, wanted) : undefined);
  for (const { userId, roleId } of links) {
    const list = held.get(userId);
    if (list) list.push(roleId);
    else held.set(userId, [roleId]);
  }
  return held;
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
