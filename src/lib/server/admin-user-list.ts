/**
 * The admin panel's user list, searched and paged on the server: accent- and case-insensitive search
 * over name, e-mail and role (with the normaliser the FAQ, glossary and templates use), a role
 * filter, 50 per page and the number of matching users per role.
 *
 * Without a search everything is SQL (count, LIMIT/OFFSET, grouped counts). With one, the rows are read
 * once as raw tuples and matched in JS against folded text kept per distinct string: the normaliser
 * (NFD + marks stripped) is too slow to run per row per request, and SQLite has no accent folding.
 */
import { asc, eq, inArray, sql } from "drizzle-orm";
import { roles, userRoles, users } from "../../../db/schema/index.ts";
import { roleLabel } from "../admin/role-labels.ts";
import type { UserListPage } from "../admin/types.ts";
import { normalizeForSearch } from "../search-text.ts";
import type { Db } from "./db.ts";

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

export interface UserListQuery {
  search: string;
  /** Role name; empty for every role. */
  role: string;
  /** 1-based. */
  page: number;
}

type Row = { id: string; email: string; fullName: string; createdAt: number };

export function listUsersPage(db: Db, query: UserListQuery): UserListPage {
  const needle = normalizeForSearch(query.search.trim());
  const allRoles = db.select({ id: roles.id, name: roles.name }).from(roles).all();
  const roleName = new Map(allRoles.map((role) => [role.id, role.name]));
  const roleId = query.role ? (allRoles.find((role) => role.name === query.role)?.id ?? -1) : null;
  const matched = needle ? searchUsers(db, needle, allRoles) : null;

  const pick = (total: number, counts: Map<number, number>, searchTotal: number, read: (offset: number) => Row[]) => {
    const pages = Math.max(1, Math.ceil(total / USERS_PER_PAGE));
    const page = Math.min(Math.max(1, query.page), pages);
    const rows = read((page - 1) * USERS_PER_PAGE);
    const held = rolesOf(
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

  if (matched) {
    // Per-role counts follow the search (not the role filter), so each choice shows what it would list.
    const counts = new Map<number, number>();
    for (const user of matched) for (const id of user.roleIds) counts.set(id, (counts.get(id) ?? 0) + 1);
    const listed = roleId === null ? matched : matched.filter((user) => user.roleIds.includes(roleId));
    return pick(listed.length, counts, matched.length, (offset) =>
      listed.slice(offset, offset + USERS_PER_PAGE).map(({ roleIds: _, ...row }) => row),
    );
  }

  const holdsRole =
    roleId === null ? undefined : sql`exists (select 1 from user_roles ur where ur.user_id = users.id and ur.role_id = ${roleId})`;
  const everyone = db
    .select({ n: sql<number>`count(*)` })
    .from(users)
    .get()!.n;
  const total =
    roleId === null
      ? everyone
      : db
          .select({ n: sql<number>`count(*)` })
          .from(users)
          .where(holdsRole)
          .get()!.n;
  const counts = new Map(
    db
      .select({ id: userRoles.roleId, n: sql<number>`count(*)` })
      .from(userRoles)
      .groupBy(userRoles.roleId)
      .all()
      .map((row) => [row.id, row.n] as const),
  );
  return pick(total, counts, everyone, (offset) =>
    db
      .select({ id: users.id, email: users.email, fullName: users.fullName, createdAt: users.createdAt })
      .from(users)
      .where(holdsRole)
      .orderBy(asc(users.createdAt), asc(users.id))
      .limit(USERS_PER_PAGE)
      .offset(offset)
      .all(),
  );
}

/** Users whose name or e-mail contains the needle, or who hold a role whose name or Portuguese label does; in list order. */
function searchUsers(db: Db, needle: string, allRoles: { id: number; name: string }[]): (Row & { roleIds: number[] })[] {
  const roleHits = new Set(
    allRoles.filter((role) => fold(role.name).includes(needle) || fold(roleLabel(role.name)).includes(needle)).map((role) => role.id),
  );
  const roleIds = new Map<string, number[]>();
  for (const [userId, id] of db.$client.prepare("select user_id, role_id from user_roles").raw().all() as [string, number][]) {
    roleIds.set(userId, [...(roleIds.get(userId) ?? []), id]);
  }
  const rows = db.$client.prepare("select id, email, full_name, created_at from users order by created_at, id").raw().all() as [
    string,
    string,
    string,
    number,
  ][];
  const found: (Row & { roleIds: number[] })[] = [];
  for (const [id, email, fullName, createdAt] of rows) {
    const held = roleIds.get(id) ?? [];
    if (fold(fullName).includes(needle) || fold(email).includes(needle) || held.some((role) => roleHits.has(role))) {
      found.push({ id, email, fullName, createdAt, roleIds: held });
    }
  }
  return found;
}

function rolesOf(db: Db, userIds: string[]): Map<string, string[]> {
  const held = new Map<string, string[]>();
  if (!userIds.length) return held;
  const rows = db
    .select({ userId: userRoles.userId, name: roles.name })
    .from(userRoles)
    .innerJoin(roles, eq(roles.id, userRoles.roleId))
    .where(inArray(userRoles.userId, userIds))
    .all();
  for (const { userId, name } of rows) held.set(userId, [...(held.get(userId) ?? []), name]);
  return held;
}
