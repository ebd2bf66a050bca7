import { eq } from "drizzle-orm";
import { ROUTES, SYSTEM_ROLES, defaultPermissions, type RouteRule, type SystemRole } from "../../routes.ts";
import { pages, rolePermissions, roles } from "../../../../db/schema/index.ts";
import { holdLock } from "./dialect.ts";
import type { Db, Tx } from "./db.ts";

const SYSTEM_ROLE_DESCRIPTIONS: Record<SystemRole, string> = {
  admin: "Acesso total: painel administrativo, logs de auditoria, Comitê de IA e todas as páginas",
  lider: "Líderes: acesso ao Comitê de IA e a todas as páginas de conteúdo",
  visualizador: "Acesso às páginas de conteúdo da metodologia (perfil padrão de novos usuários)",
  security: "Segurança: acesso aos logs de auditoria e às páginas de conteúdo",
};

/** What the database lacks to match the route table: system roles and pages to add or correct. */
interface SeedPlan {
  roles: SystemRole[];
  routes: RouteRule[];
}

async function planSeed(db: Db | Tx): Promise<SeedPlan> {
  const systemRoles = new Map((await db.select({ name: roles.name, isSystem: roles.isSystem }).from(roles)).map((r) => [r.name, r.isSystem]));
  const seeded = new Map((await db.select({ path: pages.path, name: pages.name, isSystemPage: pages.isSystemPage }).from(pages)).map((p) => [p.path, p]));
  return {
    roles: SYSTEM_ROLES.filter((name) => systemRoles.get(name) !== true),
    routes: ROUTES.filter((route) => {
      const page = seeded.get(route.path);
      return !page || page.name !== route.name || !page.isSystemPage;
    }),
  };
}

async function applySeed(tx: Tx, plan: SeedPlan): Promise<void> {
  for (const name of plan.roles) {
    await tx
      .insert(roles)
      .values({ name, description: SYSTEM_ROLE_DESCRIPTIONS[name], isSystem: true })
      .onConflictDoUpdate({ target: roles.name, set: { isSystem: true } });
  }
  if (plan.routes.length === 0) return;
  const roleIds = new Map((await tx.select({ id: roles.id, name: roles.name }).from(roles)).map((r) => [r.name, r.id]));
  for (const route of plan.routes) {
    const existing = (await tx.select({ id: pages.id }).from(pages).where(eq(pages.path, route.path)))[0];
    if (existing) {
      await tx.update(pages).set({ name: route.name, isSystemPage: true }).where(eq(pages.id, existing.id));
      continue;
    }
    const page = (await tx.insert(pages).values({ name: route.name, path: route.path, isSystemPage: true }).returning())[0]!;
    for (const role of SYSTEM_ROLES) {
      if (!defaultPermissions(role).includes(route.path)) continue;
      const roleId = roleIds.get(role);
      if (roleId !== undefined) await tx.insert(rolePermissions).values({ roleId, pageId: page.id, canAccess: true });
    }
  }
}

/**
 * Idempotent: system roles and the pages registry are brought in line with the route table.
 * Default permissions are written only when a page first appears, so an admin's later
 * changes to a system role's checklist are never undone by a restart. A database already in line
 * is only read, not even locked for writing: an instance starts on a full disk or a read-only replica.
 */
export async function seedDatabase(db: Db): Promise<void> {
  const plan = await planSeed(db);
  if (plan.roles.length === 0 && plan.routes.length === 0) return;
  await db.transaction(async (tx) => {
    await holdLock(tx, "seeding");
    // Planned again under the lock: another instance may have seeded in between.
    await applySeed(tx, await planSeed(tx));
  });
}
