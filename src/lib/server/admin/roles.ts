import { eq, inArray, sql } from "drizzle-orm";
import { pages, rolePermissions, roles, userRoles, users } from "../../../../db/schema/index.ts";
import { SYSTEM_ROLES, defaultPermissions, findRoute, grantablePages, type SystemRole } from "../../routes.ts";
import { writeAuditLog, type AuditEntry } from "../audit/audit.ts";
import type { ChecklistPage, RoleSummary } from "../../admin/types.ts";
import { refuse, type Actor, type AdminResult } from "./result.ts";
import type { Db, Tx } from "../data/db.ts";

/** Who made a change: the admin in the panel, or nobody (CLI and seeding). */
type ChangeAuthor = Pick<AuditEntry, "userId" | "ipAddress" | "userAgent">;

/** Paths a role's checklist may grant; others (and unknown paths) are silently dropped. */
export function keepGrantablePaths(paths: readonly string[]): string[] {
  const allowed = new Set(grantablePages().map((route) => route.path));
  return [...new Set(paths)].filter((path) => allowed.has(path));
}

/** Replaces all page permissions of a role inside the caller's transaction. */
export async function replaceRolePermissions(tx: Tx, roleId: number, paths: readonly string[]): Promise<string[]> {
  const kept = keepGrantablePaths(paths);
  await tx.delete(rolePermissions).where(eq(rolePermissions.roleId, roleId));
  if (kept.length === 0) return kept;
  const pageRows = await tx.select({ id: pages.id }).from(pages).where(inArray(pages.path, kept));
  for (const page of pageRows) await tx.insert(rolePermissions).values({ roleId, pageId: page.id, canAccess: true });
  return kept;
}

export type CreateAdminResult = { ok: true; roleId: number } | { ok: false; error: "name_taken" };

/** Creates a custom (never system) role with its page permissions, audited in the same transaction. */
export async function createCustomRole(
  db: Db,
  input: { name: string; description: string; pagePaths: readonly string[] },
  actor: ChangeAuthor = {},
): Promise<CreateAdminResult> {
  return db.transaction(async (tx) => {
    const name = input.name.trim();
    if ((await tx.select({ id: roles.id }).from(roles).where(eq(roles.name, name)))[0]) return { ok: false, error: "name_taken" } as const;
    const role = (await tx.insert(roles).values({ name, description: input.description.trim(), isSystem: false }).returning())[0]!;
    const granted = await replaceRolePermissions(tx, role.id, input.pagePaths);
    await writeAuditLog(tx, {
      ...actor,
      actionType: "admin_custom_role_created",
      result: "success",
      details: { name, description: role.description, pages: granted },
    });
    return { ok: true, roleId: role.id } as const;
  });
}

/** Adds a role to a user by e-mail (CLI and tests); returns false when either is unknown. */
export async function assignRoleByEmail(db: Db, email: string, roleName: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const user = (await tx.select({ id: users.id }).from(users).where(eq(users.email, email.toLowerCase())))[0];
    const role = (await tx.select({ id: roles.id }).from(roles).where(eq(roles.name, roleName)))[0];
    if (!user || !role) return false;
    await tx.insert(userRoles).values({ userId: user.id, roleId: role.id }).onConflictDoNothing();
    return true;
  });
}

/** System roles first, then by name; counts and granted pages come from two grouped reads joined in code. */
export async function listRoles(db: Db): Promise<RoleSummary[]> {
  const rows = await db
    .select({ id: roles.id, name: roles.name, description: roles.description, isSystem: roles.isSystem })
    .from(roles)
    .orderBy(sql`${roles.isSystem} desc`, roles.name);
  const userCounts = new Map(
    (
      await db
        .select({ roleId: userRoles.roleId, count: sql<number>`count(*)` })
        .from(userRoles)
        .groupBy(userRoles.roleId)
    ).map((row) => [row.roleId, row.count]),
  );
  const grantedPages = new Map<number, string[]>();
  const grants = await db
    .select({ roleId: rolePermissions.roleId, path: pages.path })
    .from(rolePermissions)
    .innerJoin(pages, eq(pages.id, rolePermissions.pageId))
    .where(eq(rolePermissions.canAccess, true));
  for (const grant of grants) grantedPages.set(grant.roleId, [...(grantedPages.get(grant.roleId) ?? []), grant.path]);
  return rows.map((row) => ({
    ...row,
    userCount: userCounts.get(row.id) ?? 0,
    pages: (grantedPages.get(row.id) ?? []).sort(),
    lockedPages: row.isSystem && isSystemRole(row.name) ? defaultPermissions(row.name) : [],
  }));
}

function isSystemRole(name: string): name is SystemRole {
  return (SYSTEM_ROLES as readonly string[]).includes(name);
}

/** Pages shown in a role's checklist: every non-public page except the admin panel. Ordered system first, then name. */
export async function listChecklistPages(db: Db): Promise<ChecklistPage[]> {
  const grantable = new Set(grantablePages().map((route) => route.path));
  return (
    await db
      .select()
      .from(pages)
      .orderBy(sql`${pages.isSystemPage} desc`, pages.name)
  ).flatMap((page) => {
    const route = findRoute(page.path);
    if (!route || route.access.kind === "public" || page.path === "/admin-panel") return [];
    return [
      { id: page.id, name: page.name, path: page.path, kind: grantable.has(page.path) ? ("grantable" as const) : ("signed-in" as const) },
    ];
  });
}

export async function createRoleAsAdmin(
  db: Db,
  body: { name: string; description: string; pages: string[] },
  actor: Actor,
): Promise<AdminResult<{ id: number }>> {
  const result = await createCustomRole(db, { name: body.name, description: body.description, pagePaths: body.pages }, actor);
  if (!result.ok) return refuse(409, "Já existe um perfil com este nome", "name");
  return { ok: true, value: { id: result.roleId } };
}

/** Description, name (custom roles only) and a full replacement of the page permissions. */
export async function updateRoleAsAdmin(
  db: Db,
  roleId: number,
  body: { name: string; description: string; pages: string[] },
  actor: Actor,
): Promise<AdminResult> {
  return db.transaction(async (tx) => {
    const role = (await tx.select().from(roles).where(eq(roles.id, roleId)))[0];
    if (!role) return refuse(404, "Perfil não encontrado");
    const name = body.name.trim();
    if (role.isSystem && name !== role.name) return refuse(400, "Nome não pode ser alterado em perfis do sistema", "name");
    if (name !== role.name && (await tx.select({ id: roles.id }).from(roles).where(eq(roles.name, name)))[0]) {
      return refuse(409, "Já existe um perfil com este nome", "name");
    }
    const before = await listRolePages(tx, roleId);
    const locked = role.isSystem && isSystemRole(role.name) ? defaultPermissions(role.name) : [];
    await tx.update(roles).set({ name, description: body.description.trim() }).where(eq(roles.id, roleId));
    const after = await replaceRolePermissions(tx, roleId, [...locked, ...body.pages]);
    await writeAuditLog(tx, {
      ...actor,
      actionType: "admin_custom_role_updated",
      result: "success",
      details: {
        before: { name: role.name, description: role.description, pages: before },
        after: { name, description: body.description.trim(), pages: after.sort() },
      },
    });
    return { ok: true, value: undefined };
  });
}

export async function deleteRoleAsAdmin(db: Db, roleId: number, actor: Actor): Promise<AdminResult> {
  return db.transaction(async (tx) => {
    const role = (await tx.select().from(roles).where(eq(roles.id, roleId)))[0];
    if (!role) return refuse(404, "Perfil não encontrado");
    if (role.isSystem) return refuse(400, "Não é possível excluir perfis do sistema");
    const holders = await tx
      .select({ email: users.email })
      .from(userRoles)
      .innerJoin(users, eq(users.id, userRoles.userId))
      .where(eq(userRoles.roleId, roleId));
    const pagesBefore = await listRolePages(tx, roleId);
    await tx.delete(roles).where(eq(roles.id, roleId));
    await writeAuditLog(tx, {
      ...actor,
      actionType: "admin_custom_role_deleted",
      result: "success",
      details: { name: role.name, description: role.description, pages: pagesBefore, holders: holders.map((h) => h.email) },
    });
    return { ok: true, value: undefined };
  });
}

async function listRolePages(tx: Tx, roleId: number): Promise<string[]> {
  return (
    await tx
      .select({ path: pages.path })
      .from(rolePermissions)
      .innerJoin(pages, eq(pages.id, rolePermissions.pageId))
      .where(eq(rolePermissions.roleId, roleId))
  )
    .map((row) => row.path)
    .sort();
}
