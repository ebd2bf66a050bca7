/**
 * A group PATCH sets the roles of every member it added or removed in one batch
 * (applyDirectoryRolesToMany). The batch must decide exactly what one person at a time did
 * (setDirectoryRoles, then its audit row): the same roles held from each source and the same
 * `scim_roles_updated` rows in the same order, for every mix of hand-given, corporate sign-in and
 * directory roles and of mapped, unmapped and external-id groups.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { asc, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLogs, directoryGroupMembers, directoryGroups, roles, userRoles, users } from "../../../db/schema/index";
import { closeDatabase, type Db } from "../../../src/lib/server/data/db";
import { auditDirectoryChange } from "../../../src/lib/server/provisioning/audit";
import { applyDirectoryRolesToMany, setDirectoryRoles } from "../../../src/lib/server/provisioning/directory-roles";
import { openOwnTestDatabase } from "../../support/users";

const settings = {
  tokenHash: new Uint8Array(32),
  roleMap: new Map<string, readonly string[]>([
    ["Líderes", ["lider"]],
    ["Segurança", ["security"]],
    ["obj-admins", ["admin"]],
    ["Fantasma", ["perfil-que-nao-existe"]],
  ]),
};
const meta = { ipAddress: "203.0.113.9", userAgent: "teste" };
const GROUPS = [
  { id: "g-lideres", displayName: "Líderes", externalId: null },
  { id: "g-seguranca", displayName: "Segurança", externalId: "obj-seg" },
  { id: "g-admins", displayName: "Administração", externalId: "obj-admins" },
  { id: "g-geral", displayName: "Geral", externalId: null },
  { id: "g-fantasma", displayName: "Fantasma", externalId: null },
];
const SOURCES = ["manual", "oidc", "directory"] as const;

/** A small deterministic generator: the same mix of people in both databases. */
function* people(count: number) {
  let seed = 20261127;
  const next = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % n;
  };
  const roleNames = ["visualizador", "lider", "admin", "security"];
  for (let i = 0; i < count; i++) {
    const held = roleNames.flatMap((name) => (next(4) === 0 ? [{ name, source: SOURCES[next(3)]! }] : []));
    const groups = GROUPS.filter(() => next(3) === 0).map((group) => group.id);
    yield { id: `pessoa-${String(i).padStart(3, "0")}`, email: `pessoa.${i}@b1.example.com`, held, groups };
  }
}

async function prepare(db: Db) {
  const roleIds = new Map((await db.select({ id: roles.id, name: roles.name }).from(roles)).map((role) => [role.name, role.id]));
  await db.insert(directoryGroups).values(GROUPS.map((group) => ({ ...group, updatedAt: Date.now() })));
  const everyone = [...people(120)];
  for (const person of everyone) {
    await db.insert(users).values({ id: person.id, email: person.email, fullName: person.email, passwordHash: "!", createdAt: Date.now() });
    for (const role of person.held)
      await db
        .insert(userRoles)
        .values({ userId: person.id, roleId: roleIds.get(role.name)!, source: role.source })
        .onConflictDoNothing();
    for (const groupId of person.groups) await db.insert(directoryGroupMembers).values({ groupId, userId: person.id });
  }
  return everyone.map(({ id, email }) => ({ id, email }));
}

async function outcome(db: Db, ids: string[]) {
  const held = await db
    .select({ userId: userRoles.userId, name: roles.name, source: userRoles.source })
    .from(userRoles)
    .innerJoin(roles, eq(roles.id, userRoles.roleId))
    .where(inArray(userRoles.userId, ids))
    .orderBy(asc(userRoles.userId), asc(roles.name), asc(userRoles.source));
  const rows = await db
    .select({ actionType: auditLogs.actionType, details: auditLogs.actionDetails })
    .from(auditLogs)
    .where(eq(auditLogs.actionType, "scim_roles_updated"))
    .orderBy(asc(auditLogs.id));
  return { held, rows: rows.map((row) => JSON.parse(row.details!)) };
}

describe("a group's members' roles set in one batch", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "b1-batched-roles-"));
  let one: Db;
  let batch: Db;
  beforeAll(async () => {
    ({ db: one } = await openOwnTestDatabase(path.join(dir, "one.sqlite")));
    ({ db: batch } = await openOwnTestDatabase(path.join(dir, "batch.sqlite")));
  });
  afterAll(async () => {
    await closeDatabase(one);
    await closeDatabase(batch);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("decides the same roles and writes the same audit rows, in the same order, as one person at a time", async () => {
    const everyone = await prepare(one);
    await prepare(batch);
    await one.transaction(async (tx) => {
      for (const person of everyone) {
        const change = await setDirectoryRoles(tx, person, settings);
        if (change) await auditDirectoryChange(tx, "scim_roles_updated", change, meta);
      }
    });
    // More people than one round (500) would need is not the point here; rounds are checked by the order below.
    await batch.transaction((tx) => applyDirectoryRolesToMany(tx, everyone, settings, meta));
    const ids = everyone.map((person) => person.id);
    const expected = await outcome(one, ids);
    const actual = await outcome(batch, ids);
    expect(expected.rows.length).toBeGreaterThan(40);
    expect(actual.held).toEqual(expected.held);
    expect(actual.rows).toEqual(expected.rows);
    // A second pass changes nothing in either.
    await batch.transaction((tx) => applyDirectoryRolesToMany(tx, everyone, settings, meta));
    expect((await outcome(batch, ids)).rows.length).toBe(expected.rows.length);
  });
});
