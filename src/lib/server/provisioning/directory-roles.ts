import { eq } from "drizzle-orm";
import { directoryGroupMembers, directoryGroups } from "../../../../db/schema/index.ts";
import type { RequestMeta } from "../audit/audit.ts";
import type { Tx } from "../data/db.ts";
import type { ScimSettings } from "../config/scim.ts";
import { mapRoleClaim, replaceMappedRoles } from "../auth/sso/roles.ts";
import { auditDirectoryChange } from "./audit.ts";

/**
 * Sets the user's `directory` roles from the groups the directory put them in, through the same
 * OIDC_ROLE_MAP rule corporate sign-in applies (a group counts by its name or its external id).
 * Roles given by hand are never touched; a change is audited.
 */
export async function applyDirectoryRoles(
  tx: Tx,
  user: { id: string; email: string },
  settings: ScimSettings,
  meta: RequestMeta,
): Promise<void> {
  const change = await setDirectoryRoles(tx, user, settings);
  if (change) await auditDirectoryChange(tx, "scim_roles_updated", change, meta);
}

/**
 * The writing half of applyDirectoryRoles: the details of the `scim_roles_updated` row to write,
 * or null when the roles stay. `groups` given: the user's groups are known (none, for an account
 * created in this transaction), so they are not read again.
 */
export async function setDirectoryRoles(
  tx: Tx,
  user: { id: string; email: string },
  settings: ScimSettings,
  groups?: { displayName: string; externalId: string | null }[],
): Promise<Record<string, unknown> | null> {
  groups ??= await tx
    .select({ displayName: directoryGroups.displayName, externalId: directoryGroups.externalId })
    .from(directoryGroupMembers)
    .innerJoin(directoryGroups, eq(directoryGroups.id, directoryGroupMembers.groupId))
    .where(eq(directoryGroupMembers.userId, user.id));
  const values = groups.flatMap((group) => (group.externalId ? [group.displayName, group.externalId] : [group.displayName]));
  const { before, after, kept } = await replaceMappedRoles(tx, user.id, mapRoleClaim(values, settings.roleMap), "directory");
  if (before.join(",") === after.join(",")) return null;
  return { user_id: user.id, email: user.email, before, after, manual: kept, groups: groups.map((group) => group.displayName).sort() };
}
