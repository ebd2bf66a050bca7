import { eq, inArray } from "drizzle-orm";
import { pages, rolePermissions, roles, userRoles, users } from "../../../db/schema/index.ts";
import { grantablePages } from "../routes.ts";
import { writeAuditLog, type AuditEntry } from "./audit.ts";
import type { Db } from "./db.ts";

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
type Actor = Pick<AuditEntry, "userId" | "ipAddress" | "userAgent">;

/** Paths a role's checklist may grant; others (and unknown paths) are silently dropped (spec §5). */
export function grantablePaths(paths: readonly string[]): string[] {
  const allowed = new Set(grantablePages().map((route) => route.path));
  return [...new Set(paths)].filter((path) => allowed.has(path));
}

/** Replaces all page permissions of a role inside the caller's transaction. */
export function replaceRolePermissions(tx: Tx, roleId: number, paths: readonly string[]): string[] {
  const kept = grantablePaths(paths);
  tx.delete(rolePermissions).where(eq(rolePermissions.roleId, roleId)).run();
  if (kept.length === 0) return kept;
  const pageRows = tx.select({ id: pages.id }).from(pages).where(inArray(pages.path, kept)).all();
  for (const page of pageRows) tx.insert(rolePermissions).values({ roleId, pageId: page.id, canAccess: true }).run();
  return kept;
}

export type CreateRoleResult = { ok: true; roleId: number } | { ok: false; error: "name_taken" };

/** Creates a custom (never system) role with its page permissions, audited in the same transaction. */
export function createCustomRole(
  db: Db,
  input: { name: string; description: string; pagePaths: readonly string[] },
  actor: Actor = {},
): CreateRoleResult {
  return db.transaction((tx) => {
    const name = input.name.trim();
    if (tx.select({ id: roles.id }).from(roles).where(eq(roles.name, name)).get()) return { ok: false, error: "name_taken" } as const;
    const role = tx.insert(roles).values({ name, description: input.description.trim(), isSystem: false }).returning().get();
    const granted = replaceRolePermissions(tx, role.id, input.pagePaths);
    writeAuditLog(tx, {
      ...actor,
      actionType: "admin_custom_role_created",
      result: "success",
      details: { name, description: role.description, pages: granted },
    });
    return { ok: true, roleId: role.id } as const;
  });
}

/** Adds a role to a user by e-mail (CLI and tests); returns false when either is unknown. */
export function assignRoleByEmail(db: Db, email: string, roleName: string): boolean {
  return db.transaction((tx) => {
    const user = tx.select({ id: users.id }).from(users).where(eq(users.email, email.toLowerCase())).get();
    const role = tx.select({ id: roles.id }).from(roles).where(eq(roles.name, roleName)).get();
    if (!user || !role) return false;
    tx.insert(userRoles).values({ userId: user.id, roleId: role.id }).onConflictDoNothing().run();
    return true;
  });
}
