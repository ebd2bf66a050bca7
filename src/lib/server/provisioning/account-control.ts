/**
 * Which accounts the directory controls. Whoever holds SCIM_TOKEN may create, change, deactivate
 * and delete ordinary accounts within OIDC_ROLE_MAP, nothing more: an account made in the portal
 * (a password, a second factor or a role given by hand) is the directory's only once an
 * administrator links it in the panel, and an account holding an admin or security role (other
 * than one the directory's own groups gave) is never the directory's. Each refusal is a `blocked` row.
 */
import { and, eq, inArray, isNotNull, isNull, ne } from "drizzle-orm";
import { roles, twoFactorSecrets, userRoles, users } from "../../../../db/schema/index.ts";
import { writeAuditLog, type RequestMeta } from "../audit/audit.ts";
import type { Db, Tx } from "../data/db.ts";
import { holdLock } from "../data/dialect.ts";
import { NO_PASSWORD } from "../auth/user.ts";
import { privilegedRole } from "../auth/privileged.ts";
import { DIRECTORY_ACTOR } from "./audit.ts";
import { scimError, type ScimAnswer, type ScimContext } from "./protocol.ts";

/**
 * Why the directory may not write an account: it holds a privileged role given by hand or by
 * corporate sign-in, or it was made in the portal and no administrator has linked it.
 */
export type DirectoryLock = "privileged_role" | "not_directory_managed";

const LOCK_DETAIL: Record<DirectoryLock, string> = {
  privileged_role: "Esta conta tem perfil de administrador ou de segurança: o diretório não a altera. Faça a mudança no painel do portal.",
  not_directory_managed:
    "Esta conta foi criada no portal (tem senha, verificação em duas etapas ou perfil dado à mão) e não é gerida pelo diretório: um administrador pode vinculá-la ao diretório no painel.",
};

/** The accounts among `userIds` that hold a privileged role from a source other than the directory's groups. */
async function privilegedAmong(db: Db | Tx, userIds: string[]): Promise<Set<string>> {
  const rows = await db
    .select({ userId: userRoles.userId })
    .from(userRoles)
    .innerJoin(roles, eq(roles.id, userRoles.roleId))
    .where(and(inArray(userRoles.userId, userIds), ne(userRoles.source, "directory"), privilegedRole(db)));
  return new Set(rows.map((row) => row.userId));
}

/**
 * The accounts among `userIds` the portal keeps from the directory, and why. An account the
 * directory created or an admin linked (`provisioned_at`) is the directory's; so is one nobody
 * made by hand (a pending sign-up, whose password the directory discards, or a corporate sign-in's
 * account with no password, second factor or hand-given role), which the directory adopts.
 */
export async function directoryLocks(tx: Tx, userIds: string[]): Promise<Map<string, DirectoryLock>> {
  const locks = new Map<string, DirectoryLock>();
  if (userIds.length === 0) return locks;
  // The panel changes roles under this lock: a role given while the directory's write is checked waits, so the check holds until commit.
  await holdLock(tx, "admin-changes");
  const unmanaged = await tx
    .select({ id: users.id, passwordHash: users.passwordHash })
    .from(users)
    .where(and(inArray(users.id, userIds), isNull(users.provisionedAt), isNotNull(users.emailConfirmedAt)));
  if (unmanaged.length) {
    const ids = unmanaged.map((row) => row.id);
    const withFactor = await tx.select({ id: twoFactorSecrets.userId }).from(twoFactorSecrets).where(inArray(twoFactorSecrets.userId, ids));
    const withManualRole = await tx
      .select({ id: userRoles.userId })
      .from(userRoles)
      .where(and(inArray(userRoles.userId, ids), eq(userRoles.source, "manual")));
    const madeByHand = new Set([...withFactor, ...withManualRole].map((row) => row.id));
    for (const row of unmanaged) {
      if (row.passwordHash !== NO_PASSWORD || madeByHand.has(row.id)) locks.set(row.id, "not_directory_managed");
    }
  }
  for (const id of await privilegedAmong(tx, userIds)) locks.set(id, "privileged_role");
  return locks;
}

export type DirectoryOperation = "replace" | "patch" | "delete" | "group_membership";

/** One `blocked` row per account the directory asked to change and may not. */
async function auditBlockedChanges(
  tx: Tx,
  ctx: ScimContext,
  accounts: { id: string; email: string; lock: DirectoryLock }[],
  operation: DirectoryOperation,
  extra: Record<string, unknown> = {},
): Promise<void> {
  for (const account of accounts) {
    await writeAuditLog(tx, {
      actionType: "scim_user_blocked",
      result: "blocked",
      details: { actor: DIRECTORY_ACTOR, user_id: account.id, email: account.email, operation, reason: account.lock, ...extra },
      ...ctx.meta,
    });
  }
}

/** 403 with the reason in Portuguese, and its `blocked` row, when the directory may not write this account; null when it may. */
export async function refuseLockedAccount(
  ctx: ScimContext,
  tx: Tx,
  account: { id: string; email: string },
  operation: DirectoryOperation,
): Promise<ScimAnswer | null> {
  const lock = (await directoryLocks(tx, [account.id])).get(account.id);
  if (!lock) return null;
  await auditBlockedChanges(tx, ctx, [{ ...account, lock }], operation);
  return scimError(403, LOCK_DETAIL[lock]);
}

/**
 * The ids among `userIds` the directory may not touch, each with its `blocked` row: a group's
 * member add, removal or role change skips them as it skips members that are no account here.
 */
export async function holdBackLockedMembers(ctx: ScimContext, tx: Tx, userIds: string[], groupId: string): Promise<Set<string>> {
  const locks = await directoryLocks(tx, userIds);
  if (locks.size === 0) return new Set();
  const locked = await tx
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(inArray(users.id, [...locks.keys()]));
  await auditBlockedChanges(
    tx,
    ctx,
    locked.map((account) => ({ ...account, lock: locks.get(account.id)! })),
    "group_membership",
    { group_id: groupId },
  );
  return new Set(locks.keys());
}

export type LinkResult = { ok: true } | { ok: false; code: "not_found" | "already_managed" | "privileged" };

/**
 * An administrator hands an account made in the portal to the directory: from now on the
 * directory sets its name, e-mail and activity (its password and second factor stay). Audited;
 * an admin or security account is refused (the directory would still be kept from it).
 */
export async function linkAccountToDirectory(
  db: Db,
  userId: string,
  actor: { userId: string } & RequestMeta,
  now = Date.now(),
): Promise<LinkResult> {
  return db.transaction(async (tx) => {
    await holdLock(tx, "accounts");
    const [account] = await tx.select({ id: users.id, email: users.email }).from(users).where(eq(users.id, userId));
    if (!account) return { ok: false, code: "not_found" } as const;
    if ((await privilegedAmong(tx, [userId])).size) return { ok: false, code: "privileged" } as const;
    const [linked] = await tx
      .update(users)
      .set({ provisionedAt: now })
      .where(and(eq(users.id, userId), isNull(users.provisionedAt)))
      .returning({ id: users.id });
    if (!linked) return { ok: false, code: "already_managed" } as const;
    await writeAuditLog(tx, {
      userId: actor.userId,
      actionType: "admin_user_directory_linked",
      result: "success",
      details: { targetUserId: userId, email: account.email },
      ipAddress: actor.ipAddress,
      userAgent: actor.userAgent,
    });
    return { ok: true } as const;
  });
}
