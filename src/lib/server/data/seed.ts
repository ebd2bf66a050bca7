import { eq } from "drizzle-orm";
import { ROUTES, SYSTEM_ROLES, defaultPermissions, type SystemRole } from "../../routes.ts";
import { pages, rolePermissions, roles } from "../../../../db/schema/index.ts";
import { holdLock } from "./dialect.ts";
import type { Db } from "./db.ts";

const SYSTEM_ROLE_DESCRIPTIONS: Record<SystemRole, string> = {
  admin: "Acesso total: painel administrativo, logs de auditoria, Comitê de IA e todas as páginas",
  lider: "Líderes: acesso ao Comitê de IA e a todas as páginas de conteúdo",
  visualizador: "Acesso às páginas de conteúdo da metodologia (perfil padrão de novos usuários)",
  security: "Segurança: acesso aos logs de auditoria e às páginas de conteúdo",
};

/**
 * Idempotent: system roles and the pages registry are brought in line with the route table.
 * Default permissions are written only when a page first appears, so an admin's later
 * changes to a system role's checklist are never undone by a restart.
 */
export async function seedDatabase(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    await holdLock(tx, "seeding");
    for (const name of SYSTEM_ROLES) {
      await tx
        .insert(roles)
        .values({ name, description: SYSTEM_ROLE_DESCRIPTIONS[name], isSystem: true })
        .onConflictDoUpdate({ target: roles.name, set: { isSystem: true } });
    }
    const roleIds = new Map((await tx.select({ id: roles.id, name: roles.name }).from(roles)).map((r) => [r.name, r.id]));
    for (const route of ROUTES) {
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
  });
}
