import { and, eq } from "drizzle-orm";
import { pages, rolePermissions, roles, userRoles, users } from "../../../../db/schema/index.ts";
import { decideAccess, pageGroup, ROUTES, type Principal, type RouteRule } from "../../routes.ts";
import { roleLabel } from "../../admin/role-labels.ts";
import type { AccessColumn, AccessMatrix, UserAccess } from "../../admin/access-matrix.ts";
import type { Db } from "../data/db.ts";
import { readRestrictions } from "./roles.ts";

export const VISITOR_COLUMN = "visitante";
export const NO_ROLE_COLUMN = "sem-perfil";
const SIGNED_IN_VIA = "Qualquer usuário conectado";
const PUBLIC_VIA = "Público";

interface RoleGrant {
  name: string;
  isSystem: boolean;
  limited: boolean;
  paths: Set<string>;
  /** Pages restricted in the panel whose audience holds this role. */
  audience: Set<string>;
}

/** Every role's grants, and the pages restricted in the panel. */
async function readRoleGrants(db: Db): Promise<{ grants: Map<number, RoleGrant>; overridden: ReadonlySet<string> }> {
  const grants = new Map<number, RoleGrant>();
  for (const role of await db.select().from(roles).orderBy(roles.id)) {
    grants.set(role.id, { name: role.name, isSystem: role.isSystem, limited: role.accessLimited, paths: new Set(), audience: new Set() });
  }
  const restrictions = await readRestrictions(db);
  for (const [path, ids] of restrictions.audience) for (const id of ids) grants.get(id)?.audience.add(path);
  const granted = await db
    .select({ roleId: rolePermissions.roleId, path: pages.path })
    .from(rolePermissions)
    .innerJoin(pages, eq(pages.id, rolePermissions.pageId))
    .where(eq(rolePermissions.canAccess, true));
  for (const { roleId, path } of granted) grants.get(roleId)?.paths.add(path);
  return { grants, overridden: restrictions.overridden };
}

/** The principal the gate would build for someone holding exactly these roles (the session lookup's rule). */
function principalHolding(held: RoleGrant[], overridden: ReadonlySet<string>): Principal {
  return {
    userId: "",
    email: "",
    name: "",
    roles: held.filter((role) => role.isSystem).map((role) => role.name),
    grantedPaths: new Set(held.flatMap((role) => [...role.paths])),
    limited: held.length > 0 && held.every((role) => role.limited),
    overridden,
    audiencePaths: new Set(held.flatMap((role) => [...role.audience])),
  };
}

function viaFor(route: RouteRule, held: RoleGrant[], overridden: ReadonlySet<string>): string[] {
  if (route.access.kind === "public") return [PUBLIC_VIA];
  const limited = held.length > 0 && held.every((role) => role.limited);
  if (route.access.kind === "signed-in" && !limited && !overridden.has(route.path)) return [SIGNED_IN_VIA];
  return held.filter((role) => decideAccess(route, principalHolding([role], overridden)) === "allow").map((role) => role.name);
}

/**
 * The matrix's row order: what people read first (the content pages, in reading order), then the pages
 * restricted to roles, the administration, and last the account and public pages (sign-in, errors…).
 */
function rowRank(route: RouteRule): number {
  if (route.reading) return 0;
  const group = pageGroup(route);
  return group === "restritas" ? 1 : group === "administracao" ? 2 : 3;
}

/** Pages × roles with the effective access, decided by the gate's own rule (decideAccess); a user's pages come from userAccess. */
export async function buildAccessMatrix(db: Db): Promise<AccessMatrix> {
  const { grants, overridden } = await readRoleGrants(db);
  const roleList = [...grants.values()];
  const columns: AccessColumn[] = [
    { key: VISITOR_COLUMN, label: "Visitante (sem login)" },
    { key: NO_ROLE_COLUMN, label: "Conectado sem perfil" },
    ...roleList.map((role) => ({ key: `perfil:${role.name}`, label: roleLabel(role.name) })),
  ];
  const rows = [...ROUTES]
    .sort((a, b) => rowRank(a) - rowRank(b))
    .map((route) => ({
      path: route.path,
      name: route.name,
      decisions: {
        [VISITOR_COLUMN]: decideAccess(route, null),
        [NO_ROLE_COLUMN]: decideAccess(route, principalHolding([], overridden)),
        ...Object.fromEntries(roleList.map((role) => [`perfil:${role.name}`, decideAccess(route, principalHolding([role], overridden))])),
      },
    }));
  return { columns, rows };
}

/** One user's pages and through which role, or null for an unknown id (the matrix's per-user view, read on demand). */
export async function userAccess(db: Db, userId: string): Promise<UserAccess | null> {
  const user = (await db.select({ id: users.id, email: users.email, fullName: users.fullName }).from(users).where(eq(users.id, userId)))[0];
  if (!user) return null;
  const { grants, overridden } = await readRoleGrants(db);
  const held = (await db.select({ roleId: userRoles.roleId }).from(userRoles).where(eq(userRoles.userId, userId))).flatMap(
    (link) => grants.get(link.roleId) ?? [],
  );
  const principal = principalHolding(held, overridden);
  const open = ROUTES.filter((route) => decideAccess(route, principal) === "allow");
  return { ...user, pages: open.map((route) => ({ path: route.path, name: route.name, via: viaFor(route, held, overridden) })) };
}

/**
 * The roles behind one decision on a role-gated page, for its audit row: for a grant, those of the
 * user's roles that open the page on their own; for a denial, every role that would. The gate's own
 * rule decides (decideAccess per role); the route table's roles come first, in its order.
 */
export async function decidingRoles(db: Db, route: RouteRule, userId: string, granted: boolean): Promise<string[]> {
  const columns = { id: roles.id, name: roles.name, isSystem: roles.isSystem, limited: roles.accessLimited };
  const candidates = granted
    ? await db
        .select(columns)
        .from(roles)
        .innerJoin(userRoles, and(eq(userRoles.roleId, roles.id), eq(userRoles.userId, userId)))
    : await db.select(columns).from(roles);
  const { overridden, audience } = await readRestrictions(db);
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
      const grant: RoleGrant = {
        name: role.name,
        isSystem: role.isSystem,
        limited: role.limited,
        paths: new Set(permitted.has(role.id) ? [route.path] : []),
        audience: new Set(audience.get(route.path)?.has(role.id) ? [route.path] : []),
      };
      return decideAccess(route, principalHolding([grant], overridden)) === "allow";
    })
    .map((role) => role.name)
    .sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}
