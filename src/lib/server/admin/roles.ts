import { eq, inArray, sql } from "drizzle-orm";
import { pages, rolePermissions, roles, userRoles, users } from "../../../../db/schema/index.ts";
import {
  SYSTEM_ROLES,
  decideAccess,
  defaultPermissions,
  findRoute,
  grantablePages,
  pageGroup,
  restrictablePages,
  type Principal,
  type SystemRole,
} from "../../routes.ts";
import { pageAudience } from "../../../../db/schema/index.ts";
import { pagesOnlyOpenTo } from "./page-access.ts";
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
  input: { name: string; description: string; pagePaths: readonly string[]; limited?: boolean },
  actor: ChangeAuthor = {},
): Promise<CreateAdminResult> {
  return db.transaction(async (tx) => {
    const name = input.name.trim();
    if ((await tx.select({ id: roles.id }).from(roles).where(eq(roles.name, name)))[0]) return { ok: false, error: "name_taken" } as const;
    const accessLimited = input.limited ?? false;
    const role = (
      await tx.insert(roles).values({ name, description: input.description.trim(), isSystem: false, accessLimited }).returning()
    )[0]!;
    const granted = await replaceRolePermissions(tx, role.id, input.pagePaths);
    await writeAuditLog(tx, {
      ...actor,
      actionType: "admin_custom_role_created",
      result: "success",
      details: { name, description: role.description, pages: granted, limited: accessLimited },
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
    .select({
      id: roles.id,
      name: roles.name,
      description: roles.description,
      isSystem: roles.isSystem,
      accessLimited: roles.accessLimited,
    })
    .from(roles)
    .orderBy(sql`${roles.isSystem} desc`, roles.name);
  const rules = await readRestrictions(db);
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
  return rows.map((row) => {
    const paths = (grantedPages.get(row.id) ?? []).sort();
    const alone: Principal = {
      userId: "",
      email: "",
      name: "",
      roles: row.isSystem ? [row.name] : [],
      grantedPaths: new Set(paths),
      limited: row.accessLimited,
      overridden: rules.overridden,
      audiencePaths: new Set([...rules.audience].filter(([, ids]) => ids.has(row.id)).map(([path]) => path)),
    };
    return {
      ...row,
      userCount: userCounts.get(row.id) ?? 0,
      pages: paths,
      lockedPages: row.isSystem && isSystemRole(row.name) ? defaultPermissions(row.name) : [],
      openPageCount: restrictablePages().filter((route) => decideAccess(route, alone) === "allow").length,
    };
  });
}

/** The panel's restrictions: overridden paths and, for each, the ids of the roles in its audience. */
export async function readRestrictions(db: Db | Tx): Promise<{ overridden: Set<string>; audience: Map<string, Set<number>> }> {
  const overridden = new Set(
    (await db.select({ path: pages.path }).from(pages).where(eq(pages.audienceOverride, true))).map((row) => row.path),
  );
  const audience = new Map<string, Set<number>>();
  const rows = await db
    .select({ path: pages.path, roleId: pageAudience.roleId })
    .from(pageAudience)
    .innerJoin(pages, eq(pages.id, pageAudience.pageId));
  for (const { path, roleId } of rows) if (overridden.has(path)) audience.set(path, (audience.get(path) ?? new Set()).add(roleId));
  for (const path of overridden) if (!audience.has(path)) audience.set(path, new Set());
  return { overridden, audience };
}

function isSystemRole(name: string): name is SystemRole {
  return (SYSTEM_ROLES as readonly string[]).includes(name);
}

/**
 * Pages shown in a role's checklist: every page whose group is Conteúdo, Restritas or Administração,
 * in route-table order, with who opens it now. Restricted pages name the panel's roles.
 */
export async function listChecklistPages(db: Db): Promise<ChecklistPage[]> {
  const grantable = new Set(grantablePages().map((route) => route.path));
  const ids = new Map((await db.select({ id: pages.id, path: pages.path }).from(pages)).map((page) => [page.path, page.id]));
  const roleNames = new Map((await db.select({ id: roles.id, name: roles.name }).from(roles)).map((role) => [role.id, role.name]));
  const { overridden, audience } = await readRestrictions(db);
  return restrictablePages().flatMap((route) => {
    const id = ids.get(route.path);
    if (id === undefined) return [];
    const restricted = overridden.has(route.path);
    const names = [...(audience.get(route.path) ?? [])].map((roleId) => roleNames.get(roleId) ?? "").sort();
    const description = restricted
      ? `Restrita no painel: ${names.join(", ")}`
      : route.access.kind === "roles"
        ? route.access.roles.join(", ")
        : "Todos os conectados (perfis limitados: só se marcada)";
    return [
      {
        id,
        name: route.name,
        path: route.path,
        kind:
          route.access.kind === "signed-in"
            ? ("signed-in" as const)
            : grantable.has(route.path)
              ? ("grantable" as const)
              : ("fixed" as const),
        group: pageGroup(route)!,
        audience: description,
        restricted,
      },
    ];
  });
}

/** A path in a role's page list that names no page of the portal (other known pages are dropped, as before). */
function unknownPage(paths: readonly string[]): string | undefined {
  return paths.find((path) => !findRoute(path));
}

export async function createRoleAsAdmin(
  db: Db,
  body: { name: string; description: string; pages: string[]; limited?: boolean },
  actor: Actor,
): Promise<AdminResult<{ id: number }>> {
  const unknown = unknownPage(body.pages);
  if (unknown) return refuse(400, `Página desconhecida: ${unknown}`, "pages");
  const result = await createCustomRole(
    db,
    { name: body.name, description: body.description, pagePaths: body.pages, limited: body.limited ?? false },
    actor,
  );
  if (!result.ok) return refuse(409, "Já existe um perfil com este nome", "name");
  return { ok: true, value: { id: result.roleId } };
}

/** Description, name (custom roles only) and a full replacement of the page permissions. */
export async function updateRoleAsAdmin(
  db: Db,
  roleId: number,
  body: { name: string; description: string; pages: string[]; limited?: boolean },
  actor: Actor,
): Promise<AdminResult> {
  const unknown = unknownPage(body.pages);
  if (unknown) return refuse(400, `Página desconhecida: ${unknown}`, "pages");
  return db.transaction(async (tx) => {
    const role = (await tx.select().from(roles).where(eq(roles.id, roleId)))[0];
    if (!role) return refuse(404, "Perfil não encontrado");
    const limited = body.limited ?? false;
    if (role.isSystem && limited) return refuse(400, "Perfis do sistema não podem ter acesso limitado", "limited");
    const name = body.name.trim();
    if (role.isSystem && name !== role.name) return refuse(400, "Nome não pode ser alterado em perfis do sistema", "name");
    if (name !== role.name && (await tx.select({ id: roles.id }).from(roles).where(eq(roles.name, name)))[0]) {
      return refuse(409, "Já existe um perfil com este nome", "name");
    }
    const before = await listRolePages(tx, roleId);
    const locked = role.isSystem && isSystemRole(role.name) ? defaultPermissions(role.name) : [];
    await tx.update(roles).set({ name, description: body.description.trim(), accessLimited: limited }).where(eq(roles.id, roleId));
    const after = await replaceRolePermissions(tx, roleId, [...locked, ...body.pages]);
    await writeAuditLog(tx, {
      ...actor,
      actionType: "admin_custom_role_updated",
      result: "success",
      details: {
        before: { name: role.name, description: role.description, pages: before, limited: role.accessLimited },
        after: { name, description: body.description.trim(), pages: after.sort(), limited },
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
    const onlyAudience = await pagesOnlyOpenTo(tx, roleId);
    if (onlyAudience.length) {
      return refuse(
        409,
        `Além do Administrador, este perfil é o único que pode abrir ${onlyAudience.join(", ")}: mude quem pode abrir essas páginas antes de excluí-lo`,
      );
    }
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
