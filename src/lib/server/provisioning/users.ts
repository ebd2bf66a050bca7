import { and, asc, count, eq, inArray, isNotNull, ne, or, sql, type SQL } from "drizzle-orm";
import { directoryGroupMembers, directoryGroups, provisionedCount, twoFactorChallenges, users } from "../../../../db/schema/index.ts";
import type { Db, Tx } from "../data/db.ts";
import { holdIdentityLocks, holdLock } from "../data/dialect.ts";
import { invalidateUserSessions } from "../sessions/session.ts";
import { forgetDevices } from "../sessions/remembered-device.ts";
import { deleteUnusedEmailTokens } from "../auth/email-tokens.ts";
import { NO_PASSWORD, roleNamesOf } from "../auth/user.ts";
import { refuseLockedAccount } from "./account-control.ts";
import { auditDirectoryChange, auditDirectoryChanges } from "./audit.ts";
import { setDirectoryRoles } from "./directory-roles.ts";
import { parseEqualityFilter } from "./filter.ts";
import { applyPatch } from "./patch.ts";
import { USER_RESOURCE } from "./schema.ts";
import {
  isPrintableAscii,
  listAnswer,
  matchesTag,
  notFound,
  preconditionFailed,
  readPage,
  scimError,
  type ScimAnswer,
  type ScimContext,
} from "./protocol.ts";
import { readUserInput, toUserResource, userVersion, type AccountRow, type GroupRef, type UserInput } from "./user-resource.ts";

const accountColumns = {
  id: users.id,
  email: users.email,
  fullName: users.fullName,
  createdAt: users.createdAt,
  provisionedAt: users.provisionedAt,
  externalId: users.externalId,
  deactivatedAt: users.deactivatedAt,
  directoryResource: users.directoryResource,
  resourceModifiedAt: users.resourceModifiedAt,
  resourceVersion: users.resourceVersion,
  emailConfirmedAt: users.emailConfirmedAt,
};

async function groupsOf(db: Db | Tx, userIds: string[]): Promise<Map<string, GroupRef[]>> {
  const byUser = new Map<string, GroupRef[]>();
  if (userIds.length === 0) return byUser;
  const rows = await db
    .select({ userId: directoryGroupMembers.userId, id: directoryGroups.id, displayName: directoryGroups.displayName })
    .from(directoryGroupMembers)
    .innerJoin(directoryGroups, eq(directoryGroups.id, directoryGroupMembers.groupId))
    .where(inArray(directoryGroupMembers.userId, userIds));
  for (const row of rows) byUser.set(row.userId, [...(byUser.get(row.userId) ?? []), { id: row.id, displayName: row.displayName }]);
  return byUser;
}

async function findAccount(db: Db | Tx, id: string) {
  return (await db.select(accountColumns).from(users).where(eq(users.id, id)))[0];
}

async function resourceOf(db: Db | Tx, row: AccountRow, baseUrl: string) {
  return toUserResource(row, (await groupsOf(db, [row.id])).get(row.id) ?? [], baseUrl);
}

export async function getScimUser(ctx: ScimContext, id: string): Promise<ScimAnswer> {
  const row = await findAccount(ctx.db, id);
  return row ? { status: 200, body: await resourceOf(ctx.db, row, ctx.baseUrl) } : notFound("Usuário");
}

/**
 * GET /Users: the accounts the directory manages. A `userName eq` lookup finds any account, as
 * Entra and Okta look a person up before creating them (and get 409 for one they may not adopt).
 */
export async function listScimUsers(ctx: ScimContext, query: URLSearchParams): Promise<ScimAnswer> {
  const filter = parseEqualityFilter(query.get("filter"), ["username", "externalid", "id", "emails.value"]);
  if (!filter.ok) return scimError(400, filter.detail, "invalidFilter");
  const conditions: SQL[] = filter.tests.map(({ attribute, value }) => {
    if (attribute === "externalid") return eq(users.externalId, value);
    if (attribute === "id") return eq(users.id, value);
    // E-mails are stored lower-cased; `userName` is case-insensitive (RFC 7643 §4.1.1). An address
    // outside ASCII matches nobody: lower-casing the Kelvin sign would find the `k…` account.
    if (!isPrintableAscii(value.trim())) return sql`1 = 0`;
    return eq(users.email, value.trim().toLowerCase());
  });
  if (!filter.tests.some(({ attribute }) => attribute === "username")) conditions.push(isNotNull(users.provisionedAt));
  const where = and(...conditions);
  const { startIndex, count: size } = readPage(query);
  // The page's ids first (from the list's index alone, however deep startIndex goes), then their rows.
  const pageIds = ctx.db
    .select({ id: users.id })
    .from(users)
    .where(where)
    .orderBy(asc(users.createdAt), asc(users.id))
    .limit(size)
    .offset(startIndex - 1);
  const rows =
    size === 0
      ? []
      : await ctx.db.select(accountColumns).from(users).where(inArray(users.id, pageIds)).orderBy(asc(users.createdAt), asc(users.id));
  // A page that is not full ends the list: its total needs no count (the usual `eq` lookup is one query).
  const total =
    size > 0 && rows.length < size && (rows.length > 0 || startIndex === 1)
      ? startIndex - 1 + rows.length
      : filter.tests.length === 0
        ? await provisionedTotal(ctx.db)
        : Number(((await ctx.db.select({ total: count() }).from(users).where(where)) as [{ total: number }])[0].total);
  const groups = await groupsOf(
    ctx.db,
    rows.map((row) => row.id),
  );
  return listAnswer(
    rows.map((row) => toUserResource(row, groups.get(row.id) ?? [], ctx.baseUrl)),
    Number(total),
    startIndex,
  );
}

/** How many accounts the directory manages: the slots the users triggers keep (migration 0019), not a count of 100,000 rows. */
async function provisionedTotal(db: ScimContext["db"]): Promise<number> {
  const [row] = await db
    .select({ total: sql<number>`coalesce(sum(${provisionedCount.people}), 0)`.mapWith(Number) })
    .from(provisionedCount);
  return row?.total ?? 0;
}

/** The e-mail or external id is someone else's: 409 `uniqueness`, as Entra and Okta expect. */
async function uniquenessConflict(tx: Tx, input: UserInput, exceptId: string | null): Promise<ScimAnswer | null> {
  const same =
    input.externalId === null ? eq(users.email, input.email) : or(eq(users.email, input.email), eq(users.externalId, input.externalId));
  const [other] = await tx
    .select({ id: users.id })
    .from(users)
    .where(exceptId ? and(same, ne(users.id, exceptId)) : same);
  return other ? scimError(409, "Já existe uma conta com este userName (e-mail) ou externalId.", "uniqueness") : null;
}

/** Ends everything a deactivated person could still use: sessions, pending links, second-factor challenges, remembered browsers. */
async function cutAccess(tx: Tx, userId: string): Promise<number> {
  const ended = await invalidateUserSessions(tx, userId);
  await deleteUnusedEmailTokens(tx, userId, "password_reset");
  await deleteUnusedEmailTokens(tx, userId, "email_confirmation");
  await tx.delete(twoFactorChallenges).where(eq(twoFactorChallenges.userId, userId));
  // A remembered browser would give back its own guess budget after a reactivation.
  await forgetDevices(tx, userId);
  return ended;
}

/** POST /Users: a new confirmed account with no password (corporate sign-in or a reset link sets one). */
export async function createScimUser(ctx: ScimContext, body: unknown): Promise<ScimAnswer> {
  const read = readUserInput(body);
  if (!read.ok) return read.answer;
  const { input } = read;
  return ctx.db.transaction(async (tx) => {
    // Two creates of the same person (address or external id) at once: the second waits here and
    // then sees the first. Creates of different people do not wait for each other (dialect.ts).
    const identities = [`email:${input.email}`, ...(input.externalId === null ? [] : [`external:${input.externalId}`])];
    await holdIdentityLocks(tx, identities);
    const conflict = await uniquenessConflict(tx, input, null);
    if (conflict) return conflict;
    const now = Date.now();
    const [row] = await tx
      .insert(users)
      .values({
        id: crypto.randomUUID(),
        email: input.email,
        fullName: input.fullName,
        passwordHash: NO_PASSWORD,
        emailConfirmedAt: now,
        createdAt: now,
        provisionedAt: now,
        externalId: input.externalId,
        deactivatedAt: input.active === false ? now : null,
        directoryResource: JSON.stringify(input.resource),
      })
      .returning(accountColumns);
    // An account made just now is in no group: its roles come from none, and its resource lists none.
    const roles = await setDirectoryRoles(tx, row!, ctx.settings, []);
    // The audit rows last: the chain lock they take is held until commit, so every create waits for it the shortest time.
    const created = {
      user_id: row!.id,
      email: input.email,
      full_name: input.fullName,
      external_id: input.externalId,
      active: input.active !== false,
    };
    await auditDirectoryChanges(tx, [["scim_user_created", created], ...(roles ? [["scim_roles_updated", roles] as const] : [])], ctx.meta);
    return { status: 201, body: toUserResource(row!, [], ctx.baseUrl), location: `${ctx.baseUrl}/Users/${row!.id}` };
  });
}

type Account = NonNullable<Awaited<ReturnType<typeof findAccount>>>;

/**
 * A change sent with `If-Match` that no longer names the account's version: 412, nothing written.
 * Read inside the change's transaction, after its lock, so two changes sent with the same version
 * cannot both pass (RFC 7644 §3.14).
 */
const outdated = (ifMatch: string | null, account: Account) => ifMatch !== null && !matchesTag(ifMatch, userVersion(account).tag);

/**
 * Writes a read User resource over an existing account, with its audit rows: changed fields,
 * deactivation (all sessions end before the answer) or reactivation. The caller has checked the
 * directory may (account-control.ts): an account it had not managed yet and nobody made by hand is
 * taken over; a pending sign-up loses the password its unknown author chose.
 */
async function writeUser(ctx: ScimContext, tx: Tx, account: Account, input: UserInput): Promise<ScimAnswer> {
  const conflict = await uniquenessConflict(tx, input, account.id);
  if (conflict) return conflict;
  const now = Date.now();
  const pending = account.emailConfirmedAt === null;
  const wasActive = account.deactivatedAt === null;
  const active = input.active ?? wasActive;
  const [row] = await tx
    .update(users)
    .set({
      email: input.email,
      fullName: input.fullName,
      externalId: input.externalId,
      provisionedAt: account.provisionedAt ?? now,
      deactivatedAt: active ? null : (account.deactivatedAt ?? now),
      directoryResource: JSON.stringify(input.resource),
      ...(pending ? { emailConfirmedAt: now, passwordHash: NO_PASSWORD } : {}),
    })
    .where(eq(users.id, account.id))
    .returning({ id: users.id });
  const changes: Record<string, { before: unknown; after: unknown }> = {};
  if (account.email !== input.email) changes.email = { before: account.email, after: input.email };
  if (account.fullName !== input.fullName) changes.full_name = { before: account.fullName, after: input.fullName };
  if (account.externalId !== input.externalId) changes.external_id = { before: account.externalId, after: input.externalId };
  const subject = { user_id: account.id, email: input.email };
  if (Object.keys(changes).length || account.provisionedAt === null || pending) {
    const takeover =
      account.provisionedAt === null ? { taken_over: true, ...(pending ? { pending_account: "password_discarded" } : {}) } : {};
    await auditDirectoryChange(tx, "scim_user_updated", { ...subject, changes, ...takeover }, ctx.meta);
  }
  if (wasActive && !active) {
    const sessionsEnded = await cutAccess(tx, account.id);
    await auditDirectoryChange(tx, "scim_user_deactivated", { ...subject, sessions_ended: sessionsEnded }, ctx.meta);
  } else if (!wasActive && active) {
    await auditDirectoryChange(tx, "scim_user_reactivated", subject, ctx.meta);
  }
  // Read again: SQLite's RETURNING does not show what the triggers then changed (the version, the date).
  return { status: 200, body: await resourceOf(tx, (await findAccount(tx, row!.id))!, ctx.baseUrl) };
}

/** PUT /Users/{id}: the resource sent replaces the directory's attributes. */
export async function replaceScimUser(ctx: ScimContext, id: string, body: unknown, ifMatch: string | null): Promise<ScimAnswer> {
  const read = readUserInput(body);
  if (!read.ok) return read.answer;
  return ctx.db.transaction(async (tx) => {
    await holdLock(tx, "accounts");
    const account = await findAccount(tx, id);
    if (!account) return notFound("Usuário");
    if (outdated(ifMatch, account)) return preconditionFailed();
    return (await refuseLockedAccount(ctx, tx, account, "replace")) ?? writeUser(ctx, tx, account, read.input);
  });
}

/** PATCH /Users/{id}: the operations are applied to the current resource, which is then written as a replacement. */
export async function patchScimUser(ctx: ScimContext, id: string, body: unknown, ifMatch: string | null): Promise<ScimAnswer> {
  return ctx.db.transaction(async (tx) => {
    await holdLock(tx, "accounts");
    const account = await findAccount(tx, id);
    if (!account) return notFound("Usuário");
    if (outdated(ifMatch, account)) return preconditionFailed();
    const locked = await refuseLockedAccount(ctx, tx, account, "patch");
    if (locked) return locked;
    const current = await resourceOf(tx, account, ctx.baseUrl);
    const patched = applyPatch(USER_RESOURCE, current, body);
    if (!patched.ok) return patched.answer;
    const read = readUserInput(patched.resource);
    if (!read.ok) return read.answer;
    return writeUser(ctx, tx, account, read.input);
  });
}

/** DELETE /Users/{id}: the account goes (sessions, roles and memberships with it); its audit rows stay. */
export async function deleteScimUser(ctx: ScimContext, id: string, ifMatch: string | null): Promise<ScimAnswer> {
  return ctx.db.transaction(async (tx) => {
    await holdLock(tx, "accounts");
    const account = await findAccount(tx, id);
    if (!account) return notFound("Usuário");
    if (outdated(ifMatch, account)) return preconditionFailed();
    const locked = await refuseLockedAccount(ctx, tx, account, "delete");
    if (locked) return locked;
    const roles = await roleNamesOf(tx, id);
    await tx.delete(users).where(eq(users.id, id));
    await auditDirectoryChange(
      tx,
      "scim_user_deleted",
      { user_id: id, email: account.email, full_name: account.fullName, external_id: account.externalId, roles },
      ctx.meta,
    );
    return { status: 204 };
  });
}
