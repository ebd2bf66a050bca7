import { and, eq } from "drizzle-orm";
import { pages, rolePermissions, roles, userRoles, users } from "../../../../db/schema/index.ts";
import { decideAccess, ROUTES, type Principal, type RouteRule } from "../../routes.ts";
import type { AccessColumn, AccessMatrix, UserAccess } from "../../admin/access-matrix.ts";
import type { Db } from "../data/db.ts";

export const VISITOR_COLUMN = "visitante";
export const NO_ROLE_COLUMN = "sem-perfil";
const SIGNED_IN_VIA = "Qualquer usuário conectado";
const PUBLIC_VIA = "Público";

interface RoleGrant {
  name: string;
  isSystem: boolean;
  paths: Set<string>;
}

async function readRoleGrants(db: Db): Promise<Map<number, RoleGrant>> {
  const grants = new Map<number, RoleGrant>();
  for (const role of await db.select().from(roles).orderBy(roles.id)) {
    grants.set(role.id, { name: role.name, isSystem: role.isSystem, paths: new Set() });
  }
  const granted = await db
    .select({ roleId: rolePermissions.roleId, path: pages.path })
    .from(rolePermissions)
    .innerJoin(pages, eq(pages.id, rolePermissions.pageId))
    .where(eq(rolePermissions.canAccess, true));
  for (const { roleId, path } of granted) grants.get(roleId)?.paths.add(path);
  return grants;
}

/** The principal the gate would build for someone holding exactly these roles (the session lookup's rule). */
function principalHolding(held: RoleGrant[]): Principal {
  return {
    userId: "",
    email: "",
    name: "",
    roles: held.filter((role) => role.isSystem).map((role) => role.name),
    grantedPaths: new Set(held.flatMap((role) => [...role.paths])),
  };
}

function viaFor(route: RouteRule, held: RoleGrant[]): string[] {
  if (route.access.kind === "public") return [PUBLIC_VIA];
  if (route.access.kind === "signed-in") return [SIGNED_IN_VIA];
  return held.filter((role) => decideAccess(route, principalHolding([role])) === "allow").map((role) => role.name);
}

/** Pages × roles with the effective access, decided by the gate's own rule (decideAccess); a user's pages come from userAccess. */
export async function buildAccessMatrix(db: Db): Promise<AccessMatrix> {
  const grants = await readRoleGrants(db);
  const roleList = [...grants.values()];
  const columns: AccessColumn[] = [
    { key: VISITOR_COLUMN, label: "Visitante (sem login)" },
    { key: NO_ROLE_COLUMN, label: "Conectado sem perfil" },
    ...roleList.map((role) => ({ key: `perfil:${role.name}`, label: role.name })),
  ];
  const rows = ROUTES.map((route) => ({
    path: route.path,
    name: route.name,
    decisions: {
      [VISITOR_COLUMN]: decideAccess(route, null),
      [NO_ROLE_COLUMN]: decideAccess(route, principalHolding([])),
      ...Object.fromEntries(roleList.map((role) => [`perfil:${role.name}`, decideAccess(route, principalHolding([role]))])),
    },
  }));
  return { columns, rows };
}

/** One user's pages and through which role, or null for an unknown id (the matrix's per-user view, read on demand). */
export async function userAccess(db: Db, userId: string): Promise<UserAccess | null> {
  const user = (await db.select({ id: users.id, email: users.email, fullName: users.fullName }).from(users).where(eq(users.id, userId)))[0];
  if (!user) return null;
  const grants = await readRoleGrants(db);
  const held = (await db.select({ roleId: userRoles.roleId }).from(userRoles).where(eq(userRoles.userId, userId))).flatMap(
    (link) => grants.get(link.roleId) ?? [],
  );
  const principal = principalHolding(held);
  const open = ROUTES.filter((route) => decideAccess(route, principal) === "allow");
  return { ...user, pages: open.map((route) => ({ path: route.path, name: route.name, via: viaFor(route, held) })) };
}

/**
 * The roles behind one decision on a role-gated page, for its audit row: for a grant, those of the
 * user's roles that open the page on their own; for a denial, every role that would. The gate's own
 * rule decides (decideAccess per role); the route table's roles come first, in its order.
 */
export async function decidingRoles(db: Db, route: RouteRule, userId: string, granted: boolean): Promise<string[]> {
  const candidates = granted
    ? await db
        .select({ id: roles.id, name: roles.name, isSystem: roles.isSystem })
        .from(roles)
        .innerJoin(userRoles, and(eq(userRoles.roleId, roles.id), eq(userRoles.userId, userId)))
    : await db.select({ id: roles.id, name: roles.name, isSystem: roles.isSystem }).from(roles);
  const permitted = new Set(
    (
      await db
        .select({ roleId: rolePermissions.roleId })
        .from(rolePermissions)
        .innerJoin(pages, eq(pages.id, rolePermissions.pageId))
        .where(and(eq(pages.path, route.path), eq(rolePermissions.canAccess, true)))
    ).map((row) => row.roleId),
  );
  const tableOrder = route.access.kind === "roles" ? (route.access.roles as readonly string[]) : [];
  const rank = (name: string) => (tableOrder.includes(name) ? tableOrder.indexOf(name) : tableOrder.length);
  return candidates
    .filter((role) => {
      const grant = { name: role.name, isSystem: role.isSystem, paths: new Set(permitted.has(role.id) ? [route.path] : []) };
      return decideAccess(route, principalHolding([grant])) === "allow";
    })
    .map((role) => role.name)
    .sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}
