import { and, eq, inArray } from "drizzle-orm";
import { roles, userRoles } from "../../../../../db/schema/index.ts";
import { writeAuditLog, type RequestMeta } from "../../audit/audit.ts";
import type { Tx } from "../../data/db.ts";
import type { OidcSettings } from "../../config/oidc.ts";

export const DEFAULT_SSO_ROLE = "visualizador";

/** Where a mapped role came from: corporate sign-in's claim, or the directory's groups (SCIM). */
export type MappedRoleSource = "oidc" | "directory";

/**
 * Portal roles named by the directory's group values (an array, or one string) through
 * `OIDC_ROLE_MAP`: the one rule both corporate sign-in and SCIM provisioning apply.
 */
export function mapRoleClaim(claim: unknown, roleMap: OidcSettings["roleMap"]): string[] {
  const values = Array.isArray(claim) ? claim : typeof claim === "string" ? [claim] : [];
  const mapped = values.flatMap((value) => (typeof value === "string" ? (roleMap.get(value) ?? []) : []));
  return [...new Set(mapped)].sort();
}

export interface MappedRolesChange {
  /** Roles of this source before and after, sorted. */
  before: string[];
  after: string[];
  /** Roles from any other source (given by hand, or by the other mapping), never touched here. */
  kept: string[];
}

/** A role a user holds, as replaceMappedRoles reads it. */
export interface HeldRole {
  roleId: number;
  name: string;
  source: string;
}

/** Roles by id and name (the ones a mapping names, or the default one). */
export type RoleRef = { id: number; name: string };

/**
 * What replacing a user's roles of one source means, decided from what they hold and the portal
 * roles the mapping names (`known`; `fallback`: the default role, for a user left with none).
 * Pure: the single and the batched writer below apply it.
 */
export function planMappedRoles(
  held: readonly HeldRole[],
  known: readonly RoleRef[],
  fallback: readonly RoleRef[],
  source: MappedRoleSource,
) {
  const kept = held.filter((role) => role.source !== source).map((role) => role.name);
  const before = held
    .filter((role) => role.source === source)
    .map((role) => role.name)
    .sort();
  let target = known.filter((role) => !kept.includes(role.name));
  if (target.length === 0 && kept.length === 0) target = [...fallback];
  const after = target.map((role) => role.name).sort();
  const dropped = held.filter((role) => role.source === source && !after.includes(role.name)).map((role) => role.roleId);
  return { change: { before, after, kept: kept.sort() } satisfies MappedRolesChange, dropped, target };
}

/** The portal roles named `wanted` (a warning names those that do not exist). */
export async function rolesNamed(tx: Tx, wanted: readonly string[], source: MappedRoleSource): Promise<RoleRef[]> {
  const known = wanted.length
    ? await tx
        .select({ id: roles.id, name: roles.name })
        .from(roles)
        .where(inArray(roles.name, [...wanted]))
    : [];
  const unknown = wanted.filter((name) => !known.some((role) => role.name === name));
  if (unknown.length) console.warn(`[${source}] OIDC_ROLE_MAP cita perfis inexistentes: ${unknown.join(", ")}`);
  return known;
}

/**
 * Replaces the user's roles of one source with the mapped ones; roles from another source (`manual`
 * above all) are never touched. A user left with no role at all gets Visualizador, from this source.
 */
export async function replaceMappedRoles(tx: Tx, userId: string, wanted: string[], source: MappedRoleSource): Promise<MappedRolesChange> {
  const held = await tx
    .select({ roleId: userRoles.roleId, name: roles.name, source: userRoles.source })
    .from(userRoles)
    .innerJoin(roles, eq(roles.id, userRoles.roleId))
    .where(eq(userRoles.userId, userId));
  const known = await rolesNamed(tx, wanted, source);
  let plan = planMappedRoles(held, known, [], source);
  // Left with no role at all: the default one (read only then).
  if (plan.target.length === 0 && plan.change.kept.length === 0)
    plan = planMappedRoles(held, known, await rolesNamed(tx, [DEFAULT_SSO_ROLE], source), source);
  const { change, dropped, target } = plan;
  if (dropped.length) {
    await tx.delete(userRoles).where(and(eq(userRoles.userId, userId), eq(userRoles.source, source), inArray(userRoles.roleId, dropped)));
  }
  for (const role of target) {
    await tx.insert(userRoles).values({ userId, roleId: role.id, source }).onConflictDoNothing();
  }
  return change;
}

/**
 * Replaces the user's `oidc` roles with the mapped ones (replaceMappedRoles), audited when they
 * change. Returns every role the user holds afterwards.
 */
export async function applyMappedRoles(
  tx: Tx,
  user: { id: string; email: string },
  wanted: string[],
  settings: OidcSettings,
  meta: RequestMeta,
): Promise<string[]> {
  const { before, after, kept } = await replaceMappedRoles(tx, user.id, wanted, "oidc");
  if (before.join(",") !== after.join(",")) {
    await writeAuditLog(tx, {
      userId: user.id,
      actionType: "sso_roles_updated",
      result: "success",
      details: { email: user.email, before, after, manual: kept, claim: settings.roleClaim },
      ...meta,
    });
  }
  return [...kept, ...after].sort();
}
