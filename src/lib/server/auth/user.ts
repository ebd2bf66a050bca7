import { and, eq, inArray, isNull } from "drizzle-orm";
import { roles, userRoles, users } from "../../../../db/schema/index.ts";
import { writeAuditLog, type AuditEntry } from "../audit/audit.ts";
import type { Db } from "../data/db.ts";
import { holdLock } from "../data/dialect.ts";
import { hashPassword } from "./password/hash.ts";

export interface NewUser {
  email: string;
  fullName: string;
  password: string;
  roleNames: string[];
  /** Confirmed users can sign in at once (CLI, admin panel); sign-ups confirm by e-mail. */
  confirmed: boolean;
}

export type CreateUserResult = { ok: true; userId: string } | { ok: false; error: "email_taken" | "unknown_role"; detail?: string };

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export async function getUserByEmail(db: Db, email: string) {
  return (
    (
      await db
        .select()
        .from(users)
        .where(eq(users.email, normalizeEmail(email)))
    )[0] ?? null
  );
}

export async function getUserById(db: Pick<Db, "select">, id: string) {
  return (await db.select().from(users).where(eq(users.id, id)))[0] ?? null;
}

/** What a caller records about a new user; written in the user's own transaction. */
export type CreationAudit = (created: { userId: string; email: string; fullName: string; roles: string[] }) => AuditEntry[];

/** Creates the user and their role links in one transaction, together with its audit rows. */
export async function createUser(db: Db, input: NewUser, audit?: CreationAudit, now = Date.now()): Promise<CreateUserResult> {
  const email = normalizeEmail(input.email);
  const passwordHash = await hashPassword(input.password);
  const wanted = [...new Set(input.roleNames)];
  return db.transaction(async (tx) => {
    // A corporate sign-in or a second sign-up claiming the address waits: the check below stays true until commit.
    await holdLock(tx, "accounts");
    if ((await tx.select({ id: users.id }).from(users).where(eq(users.email, email)))[0]) {
      return { ok: false, error: "email_taken" } as const;
    }
    const found = wanted.length ? await tx.select({ id: roles.id, name: roles.name }).from(roles).where(inArray(roles.name, wanted)) : [];
    const missing = wanted.filter((name) => !found.some((role) => role.name === name));
    if (missing.length) return { ok: false, error: "unknown_role", detail: missing.join(", ") } as const;

    const userId = crypto.randomUUID();
    await tx.insert(users).values({
      id: userId,
      email,
      fullName: input.fullName.trim(),
      passwordHash,
      emailConfirmedAt: input.confirmed ? now : null,
      createdAt: now,
    });
    for (const role of found) await tx.insert(userRoles).values({ userId, roleId: role.id });
    const created = { userId, email, fullName: input.fullName.trim(), roles: found.map((role) => role.name) };
    for (const entry of audit?.(created) ?? []) await writeAuditLog(tx, entry);
    return { ok: true, userId } as const;
  });
}

/** The names of a user's roles, sorted. */
export async function roleNamesOf(db: Pick<Db, "select">, userId: string): Promise<string[]> {
  const rows = await db
    .select({ name: roles.name })
    .from(userRoles)
    .innerJoin(roles, eq(roles.id, userRoles.roleId))
    .where(eq(userRoles.userId, userId));
  return rows.map((row) => row.name).sort();
}

export async function listUsersWithRoles(db: Db) {
  const rows = await db
    .select({ id: users.id, email: users.email, fullName: users.fullName, createdAt: users.createdAt, role: roles.name })
    .from(users)
    .leftJoin(userRoles, eq(userRoles.userId, users.id))
    .leftJoin(roles, eq(roles.id, userRoles.roleId))
    .orderBy(users.createdAt);
  const byId = new Map<string, { id: string; email: string; fullName: string; createdAt: number; roles: string[] }>();
  for (const row of rows) {
    const user = byId.get(row.id) ?? { id: row.id, email: row.email, fullName: row.fullName, createdAt: row.createdAt, roles: [] };
    if (row.role) user.roles.push(row.role);
    byId.set(row.id, user);
  }
  return [...byId.values()];
}

export async function deleteUserByEmail(db: Db, email: string): Promise<boolean> {
  const result = await db
    .delete(users)
    .where(eq(users.email, normalizeEmail(email)))
    .returning({ id: users.id });
  return result.length > 0;
}

/** A new password from an e-mailed link; following the link proves the address, so it confirms it too. */
export async function setPasswordFromMailbox(
  db: Pick<Db, "update">,
  userId: string,
  passwordHash: string,
  now = Date.now(),
): Promise<void> {
  await db.update(users).set({ passwordHash }).where(eq(users.id, userId));
  await db
    .update(users)
    .set({ emailConfirmedAt: now })
    .where(and(eq(users.id, userId), isNull(users.emailConfirmedAt)));
}

/**
 * Stored instead of a hash when no password may work (a discarded pending password, an account made by
 * corporate sign-in): it is no PHC string, so verification always fails; only an e-mailed link sets one.
 */
export const NO_PASSWORD = "!sem-senha";

export function hasUsablePassword(user: { passwordHash: string }): boolean {
  return user.passwordHash !== NO_PASSWORD;
}

/** Discards the password of an unconfirmed account, so only a link sent to its mailbox can set one. */
export async function discardPendingPassword(db: Pick<Db, "update">, userId: string): Promise<boolean> {
  const updated = await db
    .update(users)
    .set({ passwordHash: NO_PASSWORD })
    .where(and(eq(users.id, userId), isNull(users.emailConfirmedAt)))
    .returning({ id: users.id });
  return updated.length === 1;
}

/**
 * Forgets which provider identity an account is linked to, audited with where it was done: the next
 * corporate sign-in with its e-mail links anew (a new `sub`, or a new provider). False when the
 * account does not exist or is not linked.
 */
export async function unlinkSsoIdentity(db: Db, email: string, via: "cli"): Promise<boolean> {
  return db.transaction(async (tx) => {
    await holdLock(tx, "accounts");
    const user = (
      await tx
        .select()
        .from(users)
        .where(eq(users.email, normalizeEmail(email)))
    )[0];
    if (!user?.oidcIssuer) return false;
    await tx.update(users).set({ oidcIssuer: null, oidcSubject: null }).where(eq(users.id, user.id));
    await writeAuditLog(tx, {
      actionType: "sso_identity_unlinked",
      result: "success",
      details: { via, user_id: user.id, email: user.email, issuer: user.oidcIssuer, subject: user.oidcSubject },
    });
    return true;
  });
}
