import { and, eq, inArray } from "drizzle-orm";
import { directoryGroupMembers, directoryGroups, roles, userRoles } from "../../../../db/schema/index.ts";
import type { RequestMeta } from "../audit/audit.ts";
import type { Tx } from "../data/db.ts";
import type { ScimSettings } from "../config/scim.ts";
import {
  DEFAULT_SSO_ROLE,
  mapRoleClaim,
  planMappedRoles,
  replaceMappedRoles,
  type HeldRole,
  type MappedRolesChange,
  type RoleRef,
} from "../auth/sso/roles.ts";
import { auditDirectoryChanges } from "./audit.ts";

/** People per round of applyDirectoryRolesToMany: a few statements each, well under either engine's parameter limit. */
const PEOPLE_PER_ROUND = 500;

type GroupName = { displayName: string; externalId: string | null };

/** The role map's portal roles named by these groups (a group counts by its name or its external id). */
function wantedRoles(groups: readonly GroupName[], settings: ScimSettings): string[] {
  const values = groups.flatMap((group) => (group.externalId ? [group.displayName, group.externalId] : [group.displayName]));
  return mapRoleClaim(values, settings.roleMap);
}

/** What a `scim_roles_updated` row says. */
function rolesChangeDetails(user: { id: string; email: string }, change: MappedRolesChange, groups: readonly GroupName[]) {
  return {
    user_id: user.id,
    email: user.email,
    before: change.before,
    after: change.after,
    manual: change.kept,
    groups: groups.map((group) => group.displayName).sort(),
  };
}

/**
 * Sets the user's `directory` roles from the groups the directory put them in, through the same
 * OIDC_ROLE_MAP rule corporate sign-in applies (a group counts by its name or its external id);
 * roles given by hand are never touched. Returns the details of the `scim_roles_updated` row the
 * caller writes, or null when the roles stay. `groups` given: the user's groups are known (none, for an account
 * created in this transaction), so they are not read again.
 */
export async function setDirectoryRoles(
  tx: Tx,
  user: { id: string; email: string },
  settings: ScimSettings,
  groups?: GroupName[],
): Promise<Record<string, unknown> | null> {
  groups ??= await tx
    .select({ displayName: directoryGroups.displayName, externalId: directoryGroups.externalId })
    .from(directoryGroupMembers)
    .innerJoin(directoryGroups, eq(directoryGroups.id, directoryGroupMembers.groupId))
    .where(eq(directoryGroupMembers.userId, user.id));
  const change = await replaceMappedRoles(tx, user.id, wantedRoles(groups, settings), "directory");
  if (change.before.join(",") === change.after.join(",")) return null;
  return rolesChangeDetails(user, change, groups);
}

/**
 * setDirectoryRoles, audited, for many accounts at once (the members a group PATCH added or removed, or a
 * renamed group's): the same rule, rows and audit rows in the same order, read and written in a
 * few statements per 500 people where one person at a time took about ten each.
 */
export async function applyDirectoryRolesToMany(
  tx: Tx,
  people: readonly { id: string; email: string }[],
  settings: ScimSettings,
  meta: RequestMeta,
): Promise<void> {
  if (people.length === 0) return;
  const allRoles = await tx.select({ id: roles.id, name: roles.name }).from(roles);
  const roleByName = new Map(allRoles.map((role) => [role.name, role]));
  const fallback: RoleRef[] = roleByName.has(DEFAULT_SSO_ROLE) ? [roleByName.get(DEFAULT_SSO_ROLE)!] : [];
  const unknown = new Set<string>();
  for (let start = 0; start < people.length; start += PEOPLE_PER_ROUND) {
    const round = people.slice(start, start + PEOPLE_PER_ROUND);
    const ids = round.map((person) => person.id);
    const groupsOf = new Map<string, GroupName[]>();
    for (const row of await tx
      .select({ userId: directoryGroupMembers.userId, displayName: directoryGroups.displayName, externalId: directoryGroups.externalId })
      .from(directoryGroupMembers)
      .innerJoin(directoryGroups, eq(directoryGroups.id, directoryGroupMembers.groupId))
      .where(inArray(directoryGroupMembers.userId, ids))) {
      groupsOf.set(row.userId, [...(groupsOf.get(row.userId) ?? []), { displayName: row.displayName, externalId: row.externalId }]);
    }
    const heldBy = new Map<string, HeldRole[]>();
    for (const row of await tx
      .select({ userId: userRoles.userId, roleId: userRoles.roleId, name: roles.name, source: userRoles.source })
      .from(userRoles)
      .innerJoin(roles, eq(roles.id, userRoles.roleId))
      .where(inArray(userRoles.userId, ids))) {
      heldBy.set(row.userId, [...(heldBy.get(row.userId) ?? []), { roleId: row.roleId, name: row.name, source: row.source }]);
    }
    const dropsByRole = new Map<number, string[]>();
    const grants: { userId: string; roleId: number; source: "directory" }[] = [];
    const changes: ["scim_roles_updated", Record<string, unknown>][] = [];
    for (const person of round) {
      const groups = groupsOf.get(person.id) ?? [];
      const held = heldBy.get(person.id) ?? [];
      const wanted = wantedRoles(groups, settings);
      for (const name of wanted) if (!roleByName.has(name)) unknown.add(name);
      const known = wanted.flatMap((name) => (roleByName.has(name) ? [roleByName.get(name)!] : []));
      const { change, dropped, target } = planMappedRoles(held, known, fallback, "directory");
      if (change.before.join(",") === change.after.join(",")) continue;
      for (const roleId of dropped) dropsByRole.set(roleId, [...(dropsByRole.get(roleId) ?? []), person.id]);
      for (const role of target) {
        if (!held.some((h) => h.source === "directory" && h.roleId === role.id))
          grants.push({ userId: person.id, roleId: role.id, source: "directory" });
      }
      changes.push(["scim_roles_updated", rolesChangeDetails(person, change, groups)]);
    }
    for (const [roleId, userIds] of dropsByRole) {
      await tx
        .delete(userRoles)
        .where(and(eq(userRoles.source, "directory"), eq(userRoles.roleId, roleId), inArray(userRoles.userId, userIds)));
    }
    if (grants.length) await tx.insert(userRoles).values(grants).onConflictDoNothing();
    if (changes.length) await auditDirectoryChanges(tx, changes, meta);
  }
  if (unknown.size) console.warn(`[directory] OIDC_ROLE_MAP cita perfis inexistentes: ${[...unknown].join(", ")}`);
}
