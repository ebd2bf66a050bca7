import { and, eq, inArray, or, type SQL } from "drizzle-orm";
import { pages, rolePermissions, roles } from "../../../../db/schema/index.ts";
import { ROUTES } from "../../routes.ts";
import type { Db, Tx } from "../data/db.ts";

/** The system roles that hold the portal's keys: the directory never writes their accounts, an identity provider's MFA claim never stands for their code. */
export const PRIVILEGED_SYSTEM_ROLES: readonly string[] = ["admin", "security"];

/** Pages only privileged roles open (the audit log): a custom role granted one is privileged too. */
export const PRIVILEGED_PAGES = ROUTES.filter(
  (route) => route.access.kind === "roles" && route.access.roles.every((role) => PRIVILEGED_SYSTEM_ROLES.includes(role)),
).map((route) => route.path);

/** A condition on `roles` (joined in the query): the role is a privileged system role or opens a privileged page. */
export function privilegedRole(db: Db | Tx): SQL | undefined {
  const opensPrivilegedPage = PRIVILEGED_PAGES.length
    ? inArray(
        roles.id,
        db
          .select({ id: rolePermissions.roleId })
          .from(rolePermissions)
          .innerJoin(pages, eq(pages.id, rolePermissions.pageId))
          .where(and(inArray(pages.path, PRIVILEGED_PAGES), eq(rolePermissions.canAccess, true))),
      )
    : undefined;
  return or(inArray(roles.name, [...PRIVILEGED_SYSTEM_ROLES]), opensPrivilegedPage);
}
