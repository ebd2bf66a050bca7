import { and, asc, count, eq, inArray, ne, sql, type SQL } from "drizzle-orm";
import { directoryGroupMembers, directoryGroups, users } from "../../../../db/schema/index.ts";
import type { Tx } from "../data/db.ts";
import { holdLock } from "../data/dialect.ts";
import { holdBackLockedMembers } from "./account-control.ts";
import { auditDirectoryChange } from "./audit.ts";
import { applyDirectoryRolesToMany } from "./directory-roles.ts";
import { parseEqualityFilter } from "./filter.ts";
import { applyPatch } from "./patch.ts";
import { attributeOf, checkValue, EXTERNAL_ID, find, GROUP_RESOURCE } from "./schema.ts";
import {
  GROUP_SCHEMA,
  isPlainObject,
  listAnswer,
  matchesTag,
  notFound,
  preconditionFailed,
  readPage,
  schemasProblem,
  scimError,
  versionTag,
  type ScimAnswer,
  type ScimContext,
} from "./protocol.ts";

type GroupRow = typeof directoryGroups.$inferSelect;
type Member = { value: string; display: string };

/** What a Group resource sets: its name, the directory's id for it and its members' account ids (each once). */
interface GroupInput {
  displayName: string;
  externalId: string | null;
  memberIds: string[];
}

const iso = (ms: number) => new Date(ms).toISOString();

/** The group's version tag: its change counter and last change, both kept by the database's triggers (migration 0016). */
const groupVersion = (group: GroupRow) => versionTag(group.resourceVersion, Math.max(group.createdAt, group.updatedAt));

/** A change sent with an `If-Match` that no longer names the group's version (read after the change's lock). */
const outdated = (ifMatch: string | null, group: GroupRow) => ifMatch !== null && !matchesTag(ifMatch, groupVersion(group));

function toGroupResource(group: GroupRow, members: Member[] | null, baseUrl: string): Record<string, unknown> {
  return {
    schemas: [GROUP_SCHEMA],
    id: group.id,
    ...(group.externalId !== null ? { externalId: group.externalId } : {}),
    displayName: group.displayName,
    ...(members ? { members: members.map((member) => ({ ...member, $ref: `${baseUrl}/Users/${member.value}` })) } : {}),
    meta: {
      resourceType: "Group",
      created: iso(group.createdAt),
      lastModified: iso(Math.max(group.createdAt, group.updatedAt)),
      location: `${baseUrl}/Groups/${group.id}`,
      version: groupVersion(group),
    },
  };
}

function readGroupInput(body: unknown): { ok: true; input: GroupInput } | { ok: false; answer: ScimAnswer } {
  if (!isPlainObject(body))
    return { ok: false, answer: scimError(400, "Corpo inválido: esperado um recurso Group em JSON.", "invalidSyntax") };
  const invalid = (detail: string) => ({ ok: false, answer: scimError(400, detail, "invalidValue") }) as const;
  const schemas = schemasProblem(body);
  if (schemas) return { ok: false, answer: schemas };
  const name = checkValue(find(GROUP_RESOURCE.core.attributes, "displayName")!, attributeOf(body, "displayName"), false);
  if (!name.ok) return invalid(name.detail);
  const displayName = typeof name.value === "string" ? name.value.trim() : "";
  if (!displayName) return invalid("O atributo `displayName` é obrigatório.");
  const external = checkValue(EXTERNAL_ID, attributeOf(body, "externalId"), false);
  if (!external.ok) return invalid(external.detail);
  const members = checkValue(find(GROUP_RESOURCE.core.attributes, "members")!, attributeOf(body, "members") ?? [], false);
  if (!members.ok) return invalid(members.detail);
  const values = members.value as Record<string, unknown>[];
  if (!values.every((member) => typeof member.value === "string")) return invalid("Cada membro deve ter o `value` (id do usuário).");
  const externalId = typeof external.value === "string" && external.value.trim() ? external.value.trim() : null;
  // The directory may repeat a member; a person is in a group once.
  const memberIds = [...new Set(values.map((member) => member.value as string))];
  return { ok: true, input: { displayName, externalId, memberIds } };
}

async function membersOf(db: ScimContext["db"] | Tx, groupId: string): Promise<Member[]> {
  return db
    .select({ value: users.id, display: users.email })
    .from(directoryGroupMembers)
    .innerJoin(users, eq(users.id, directoryGroupMembers.userId))
    .where(eq(directoryGroupMembers.groupId, groupId))
    .orderBy(asc(users.email));
}

async function findGroup(db: ScimContext["db"] | Tx, id: string) {
  return (await db.select().from(directoryGroups).where(eq(directoryGroups.id, id)))[0];
}

/** Another group already has this name (compared without case, as SCIM's displayName is). */
async function nameTaken(tx: Tx, displayName: string, exceptId: string | null): Promise<boolean> {
  const same = sql`lower(${directoryGroups.displayName}) = ${displayName.toLowerCase()}`;
  const [other] = await tx
    .select({ id: directoryGroups.id })
    .from(directoryGroups)
    .where(exceptId ? and(same, ne(directoryGroups.id, exceptId)) : same);
  return Boolean(other);
}

/**
 * Sets the group's name and members, then the roles of everyone whose groups changed (and of every
 * member when the name, which the role map reads, changed). Members that are no account here, or
 * accounts the directory may not touch (account-control.ts), are skipped.
 */
async function writeGroup(ctx: ScimContext, tx: Tx, group: GroupRow, input: GroupInput, created: boolean): Promise<ScimAnswer> {
  // Sets, not array lookups: a group of 20,000 members compared by `includes` took seconds of the event loop.
  const before = created ? [] : (await membersOf(tx, group.id)).map((member) => member.value);
  const known = input.memberIds.length
    ? (await tx.select({ id: users.id }).from(users).where(inArray(users.id, input.memberIds))).map((row) => row.id)
    : [];
  const knownSet = new Set(known);
  const beforeSet = new Set(before);
  const renamed = !created && (group.displayName !== input.displayName || group.externalId !== input.externalId);
  // Accounts the directory may not touch keep their memberships and roles, as if the change named someone unknown.
  const touched = renamed
    ? [...new Set([...known, ...before])]
    : [...known.filter((id) => !beforeSet.has(id)), ...before.filter((id) => !knownSet.has(id))];
  const locked = await holdBackLockedMembers(ctx, tx, touched, group.id);
  const added = known.filter((id) => !beforeSet.has(id) && !locked.has(id));
  const removed = before.filter((id) => !knownSet.has(id) && !locked.has(id));
  // `updated_at` and the version move by trigger, and only when the name, external id or members really change.
  await tx
    .update(directoryGroups)
    .set({ displayName: input.displayName, externalId: input.externalId })
    .where(eq(directoryGroups.id, group.id));
  if (removed.length) {
    await tx
      .delete(directoryGroupMembers)
      .where(and(eq(directoryGroupMembers.groupId, group.id), inArray(directoryGroupMembers.userId, removed)));
  }
  for (let start = 0; start < added.length; start += 500) {
    const rows = added.slice(start, start + 500).map((userId) => ({ groupId: group.id, userId }));
    await tx.insert(directoryGroupMembers).values(rows).onConflictDoNothing();
  }
  const skipped = input.memberIds.filter((id) => !knownSet.has(id));
  if (created || renamed || added.length || removed.length) {
    await auditDirectoryChange(
      tx,
      created ? "scim_group_created" : "scim_group_updated",
      {
        group_id: group.id,
        display_name: input.displayName,
        external_id: input.externalId,
        ...(renamed ? { previous_display_name: group.displayName } : {}),
        added,
        removed,
        ...(skipped.length ? { unknown_members: skipped } : {}),
      },
      ctx.meta,
    );
  }
  await applyRolesOf(ctx, tx, renamed ? [...new Set([...known, ...removed])].filter((id) => !locked.has(id)) : [...added, ...removed]);
  // Read after the triggers ran (SQLite's RETURNING would show the row before them).
  const row = (await findGroup(tx, group.id))!;
  return { status: created ? 201 : 200, body: toGroupResource(row, await membersOf(tx, group.id), ctx.baseUrl) };
}

async function applyRolesOf(ctx: ScimContext, tx: Tx, userIds: string[]): Promise<void> {
  if (userIds.length === 0) return;
  const people = await tx.select({ id: users.id, email: users.email }).from(users).where(inArray(users.id, userIds));
  await applyDirectoryRolesToMany(tx, people, ctx.settings, ctx.meta);
}

/** GET /Groups/{id}; `withMembers` false when the answer leaves `members` out (not read at all: a group may have 20,000). */
export async function getScimGroup(ctx: ScimContext, id: string, withMembers: boolean): Promise<ScimAnswer> {
  const group = await findGroup(ctx.db, id);
  if (!group) return notFound("Grupo");
  const members = withMembers ? await membersOf(ctx.db, id) : null;
  return { status: 200, body: toGroupResource(group, members, ctx.baseUrl) };
}

export async function listScimGroups(ctx: ScimContext, query: URLSearchParams, withMembers: boolean): Promise<ScimAnswer> {
  const filter = parseEqualityFilter(query.get("filter"), ["displayname", "externalid", "id"]);
  if (!filter.ok) return scimError(400, filter.detail, "invalidFilter");
  const conditions: SQL[] = filter.tests.map(({ attribute, value }) => {
    if (attribute === "externalid") return eq(directoryGroups.externalId, value);
    if (attribute === "id") return eq(directoryGroups.id, value);
    return sql`lower(${directoryGroups.displayName}) = ${value.toLowerCase()}`;
  });
  const where = conditions.length ? and(...conditions) : undefined;
  const { startIndex, count: size } = readPage(query);
  const [{ total }] = (await ctx.db.select({ total: count() }).from(directoryGroups).where(where)) as [{ total: number }];
  const rows =
    size === 0
      ? []
      : await ctx.db
          .select()
          .from(directoryGroups)
          .where(where)
          .orderBy(asc(directoryGroups.createdAt), asc(directoryGroups.id))
          .limit(size)
          .offset(startIndex - 1);
  const resources = [];
  for (const row of rows) resources.push(toGroupResource(row, withMembers ? await membersOf(ctx.db, row.id) : null, ctx.baseUrl));
  return listAnswer(resources, Number(total), startIndex);
}

export async function createScimGroup(ctx: ScimContext, body: unknown): Promise<ScimAnswer> {
  const read = readGroupInput(body);
  if (!read.ok) return read.answer;
  const answer = await ctx.db.transaction(async (tx) => {
    await holdLock(tx, "accounts");
    if (await nameTaken(tx, read.input.displayName, null)) {
      return scimError(409, "Já existe um grupo com este displayName.", "uniqueness");
    }
    const now = Date.now();
    const [group] = await tx
      .insert(directoryGroups)
      .values({
        id: crypto.randomUUID(),
        displayName: read.input.displayName,
        externalId: read.input.externalId,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    return writeGroup(ctx, tx, group!, read.input, true);
  });
  const id = answer.status === 201 ? (answer.body as { id: string }).id : null;
  return id ? { ...answer, location: `${ctx.baseUrl}/Groups/${id}` } : answer;
}

export async function replaceScimGroup(ctx: ScimContext, id: string, body: unknown, ifMatch: string | null): Promise<ScimAnswer> {
  const read = readGroupInput(body);
  if (!read.ok) return read.answer;
  return ctx.db.transaction(async (tx) => {
    await holdLock(tx, "accounts");
    const group = await findGroup(tx, id);
    if (!group) return notFound("Grupo");
    if (outdated(ifMatch, group)) return preconditionFailed();
    if (await nameTaken(tx, read.input.displayName, id)) return scimError(409, "Já existe um grupo com este displayName.", "uniqueness");
    return writeGroup(ctx, tx, group, read.input, false);
  });
}

/**
 * PATCH /Groups/{id}: member adds and removes (by list or by `members[value eq "…"]`), renames.
 * 204 as Entra expects, with the new version in `ETag`; 200 with the group when the request asks
 * for `attributes` or `excludedAttributes` (RFC 7644 §3.5.2: then the body MUST come back).
 */
export async function patchScimGroup(
  ctx: ScimContext,
  id: string,
  body: unknown,
  ifMatch: string | null,
  answerWithBody: boolean,
): Promise<ScimAnswer> {
  return ctx.db.transaction(async (tx) => {
    await holdLock(tx, "accounts");
    const group = await findGroup(tx, id);
    if (!group) return notFound("Grupo");
    if (outdated(ifMatch, group)) return preconditionFailed();
    // Members are compared by `value` (the account id): Entra's removals carry `$ref: null`, ours carry display and $ref.
    const members = (await membersOf(tx, id)).map((member) => ({ value: member.value }));
    const current = { ...toGroupResource(group, null, ctx.baseUrl), members };
    const patched = applyPatch(GROUP_RESOURCE, current, body);
    if (!patched.ok) return patched.answer;
    const resource = patched.resource;
    const read = readGroupInput({ ...resource, members: resource.members ?? [] });
    if (!read.ok) return read.answer;
    if (await nameTaken(tx, read.input.displayName, id)) return scimError(409, "Já existe um grupo com este displayName.", "uniqueness");
    const written = await writeGroup(ctx, tx, group, read.input, false);
    if (answerWithBody) return written;
    return { status: 204, etag: (written.body as { meta: { version: string } }).meta.version };
  });
}

export async function deleteScimGroup(ctx: ScimContext, id: string, ifMatch: string | null): Promise<ScimAnswer> {
  return ctx.db.transaction(async (tx) => {
    await holdLock(tx, "accounts");
    const group = await findGroup(tx, id);
    if (!group) return notFound("Grupo");
    if (outdated(ifMatch, group)) return preconditionFailed();
    const members = (await membersOf(tx, id)).map((member) => member.value);
    const locked = await holdBackLockedMembers(ctx, tx, members, id);
    await tx.delete(directoryGroups).where(eq(directoryGroups.id, id));
    await auditDirectoryChange(tx, "scim_group_deleted", { group_id: id, display_name: group.displayName, members }, ctx.meta);
    await applyRolesOf(
      ctx,
      tx,
      members.filter((member) => !locked.has(member)),
    );
    return { status: 204 };
  });
}
