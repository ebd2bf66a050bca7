import { and, eq, inArray } from "drizzle-orm";
import { roles, userRoles } from "../../../../../db/schema/index.ts";
import { writeAuditLog, type RequestMeta } from "../../audit/audit.ts";
import type { Tx } from "../../data/db.ts";
import type { OidcSettings } from "../../config/oidc.ts";

export const DEFAULT_SSO_ROLE = "visualizador";

/** Portal roles named by the role claim's values (an array, or one string) through `OIDC_ROLE_MAP`. */
export function mapRoleClaim(claim: unknown, roleMap: OidcSettings["roleMap"]): string[] {
  const values = Array.isArray(claim) ? claim : typeof claim === "string" ? [claim] : [];
  const mapped = values.flatMap((value) => (typeof value === "string" ? (roleMap.get(value) ?? []) : []));
  return [...new Set(mapped)].sort();
}

/**
 * Replaces the user's `oidc` roles with the mapped ones, audited when they change; roles given by
 * hand (`manual`) are never touched. A user left with no role at all gets Visualizador, as `oidc`.
 * Returns every role the user holds afterwards.
 */
export async function applyMappedRoles(
  tx: Tx,
  user: { id: string; email: string },
  wanted: string[],
  settings: OidcSettings,
  meta: RequestMeta,
): Promise<string[]> {
  const userId = user.id;
  const held = await tx
    .select({ roleId: userRoles.roleId, name: roles.name, source: userRoles.source })
    .from(userRoles)
    .innerJoin(roles, eq(roles.id, userRoles.roleId))
    .where(eq(userRoles.userId, userId));
  const manual = held.filter((role) => role.source === "manual").map((role) => role.name);
  const before = held
    .filter((role) => role.source === "oidc")
    .map((role) => role.name)
    .sort();
  const known = wanted.length ? await tx.select({ id: roles.id, name: roles.name }).from(roles).where(inArray(roles.name, wanted)) : [];
  const unknown = wanted.filter((name) => !known.some((role) => role.name === name));
  if (unknown.length) console.warn(`[sso] OIDC_ROLE_MAP cita perfis inexistentes: ${unknown.join(", ")}`);
  let target = known.filter((role) => !manual.includes(role.name));
  if (target.length === 0 && manual.length === 0) {
    target = await tx.select({ id: roles.id, name: roles.name }).from(roles).where(eq(roles.name, DEFAULT_SSO_ROLE));
  }
  const after = target.map((role) => role.name).sort();

  const dropped = held.filter((role) => role.source === "oidc" && !after.includes(role.name)).map((role) => role.roleId);
  if (dropped.length) {
    await tx.delete(userRoles).where(and(eq(userRoles.userId, userId), eq(userRoles.source, "oidc"), inArray(userRoles.roleId, dropped)));
  }
  for (const role of target) {
    await tx.insert(userRoles).values({ userId, roleId: role.id, source: "oidc" }).onConflictDoNothing();
  }
  if (before.join(",") !== after.join(",")) {
    await writeAuditLog(tx, {
      userId,
      actionType: "sso_roles_updated",
      result: "success",
      details: { email: user.email, before, after, manual: manual.sort(), claim: settings.roleClaim },
      ...meta,
    });
  }
  return [...manual, ...after].sort();
}
