// Over 200 lines: one fixture (a SQLite portal with rows in every table) built once for the three behaviours of the copy.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { eq, getTableName, is } from "drizzle-orm";
import { drizzle, type BetterSQLite3Database } from "drizzle-orm/better-sqlite3";
import { PgTable } from "drizzle-orm/pg-core";
import { SQLiteTable } from "drizzle-orm/sqlite-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDatabase, openDatabase, pgSchema, sqliteSchema, type Db } from "../../../src/lib/server/data/db";
import { createDatabase } from "../../support/pg";
import { scriptArgs } from "../../support/scripts";

const CONFIRMED_AT = 1_700_000_000_123;
const DETAILS = JSON.stringify({ motivo: 'ação ✓ "aspas"', n: 1, lista: [true, null] });
const AUDIT_ROWS = 2_345; // more than two batches

function runScript(script: string, args: string[], env: Record<string, string | undefined> = {}) {
  const child = spawnSync(process.execPath, scriptArgs(script, args), {
    encoding: "utf8",
    env: { ...process.env, ...env },
    timeout: 60_000,
  });
  return { status: child.status, stdout: child.stdout, stderr: child.stderr };
}

/** A portal's SQLite file as a real one looks: created by db:migrate, then rows in every table. */
function fillSource(source: BetterSQLite3Database<typeof sqliteSchema>) {
  const s = sqliteSchema;
  const admin = source.select().from(s.roles).where(eq(s.roles.name, "admin")).get()!;
  const page = source.select().from(s.pages).limit(1).get()!;
  source
    .insert(s.users)
    .values({
      id: "u1",
      email: "ana@b1.example.com",
      fullName: "Ana",
      passwordHash: "$argon2id$x",
      emailConfirmedAt: CONFIRMED_AT,
      createdAt: CONFIRMED_AT - 1,
    })
    .run();
  source
    .insert(s.users)
    .values({
      id: "u2",
      email: "ze@b1.example.com",
      fullName: "Zé Ção",
      passwordHash: "$argon2id$y",
      emailConfirmedAt: null,
      readingDigestOptOut: true,
    })
    .run();
  const custom = source.insert(s.roles).values({ name: "auditoria-externa", description: "Só leitura", isSystem: false }).returning().get();
  source
    .insert(s.userRoles)
    .values([
      { userId: "u1", roleId: admin.id },
      { userId: "u2", roleId: custom.id, source: "oidc" },
    ])
    .run();
  source.insert(s.rolePermissions).values({ roleId: custom.id, pageId: page.id, canAccess: false }).run();
  source
    .insert(s.rememberedDevices)
    .values({ tokenHash: "d1", userId: "u1", createdAt: CONFIRMED_AT, expiresAt: CONFIRMED_AT + 180 * 86_400_000 })
    .run();
  source
    .insert(s.sessions)
    .values({
      id: "s1",
      secretHash: "h",
      userId: "u1",
      lastVerifiedAt: CONFIRMED_AT,
      expiresAt: CONFIRMED_AT + 7 * 86_400_000,
      ipAddress: "203.0.113.7",
      userAgent: "Firefox",
    })
    .run();
  source.insert(s.emailTokens).values({ tokenHash: "t1", userId: "u2", purpose: "email_confirmation", expiresAt: CONFIRMED_AT }).run();
  const audit = Array.from({ length: AUDIT_ROWS }, (_, i) => ({
    createdAt: CONFIRMED_AT + i,
    userId: i % 2 ? "u1" : null,
    actionType: "login",
    result: "success" as const,
    hash: `h${i}`,
  }));
  for (let i = 0; i < audit.length; i += 500)
    source
      .insert(s.auditLogs)
      .values(audit.slice(i, i + 500))
      .run();
  source
    .insert(s.auditLogs)
    .values({ actionType: "role_change", result: "blocked", actionDetails: DETAILS, userId: "u1", ipAddress: "203.0.113.7" })
    .run();
  source
    .insert(s.trailProgress)
    .values({ userId: "u1", data: JSON.stringify({ completed: ["etapa-1"], projectName: "Ação" }), updatedAt: CONFIRMED_AT })
    .run();
  source
    .insert(s.oidcSignInAttempts)
    .values({ stateHash: "st", codeVerifier: "cv", nonce: "n", nextPath: "/", expiresAt: CONFIRMED_AT })
    .run();
  source.insert(s.rateLimits).values({ key: "sign-in:ip:203.0.113.7", count: 3, resetAt: CONFIRMED_AT }).run();
  source.insert(s.twoFactorSecrets).values({ userId: "u1", secretEncrypted: "enc", confirmedAt: null, lastUsedStep: 56_666_666 }).run();
  source.insert(s.twoFactorRecoveryCodes).values({ codeHash: "rc", userId: "u1" }).run();
  source
    .insert(s.twoFactorChallenges)
    .values({ tokenHash: "ch", userId: "u1", nextPath: "/inicio", failures: 2, expiresAt: CONFIRMED_AT })
    .run();
  source.insert(s.auditChainCheckpoints).values({ lastPrunedId: 0, lastPrunedHash: "genesis", createdAt: CONFIRMED_AT }).run();
  source.insert(s.healthProbe).values({ id: 1, probedAt: CONFIRMED_AT }).run();
  source.insert(s.readingConfirmations).values({ userId: "u1", pagePath: "/comite-ia", version: 2, confirmedAt: CONFIRMED_AT }).run();
  source.insert(s.readingNewsVisits).values({ userId: "u1", seenAt: CONFIRMED_AT }).run();
  source.insert(s.readingDigestSends).values({ userId: "u1", week: "2026-W48", claimedAt: CONFIRMED_AT, sentAt: CONFIRMED_AT }).run();
  source.insert(s.directoryGroups).values({ id: "g1", displayName: "Líderes", externalId: "obj-1", updatedAt: CONFIRMED_AT }).run();
  source.insert(s.directoryGroupMembers).values({ groupId: "g1", userId: "u2" }).run();
  source.insert(s.pageAudience).values({ pageId: page.id, roleId: custom.id }).run();
  source
    .insert(s.auditDestinations)
    .values({ name: "webhook", deliveredId: 7, deliveredAt: CONFIRMED_AT, paused: 1, lastError: "HTTP 500", updatedAt: CONFIRMED_AT })
    .run();
  source.insert(s.insightsReads).values({ page: "/faq", day: "2026-11-27", role: "*", reads: 3 }).run();
  source.insert(s.insightsReaders).values({ page: "/faq", week: "2026-W48", register: 12, rank: 3 }).run();
  source.insert(s.insightsSearches).values({ query: "canvas", day: "2026-11-27", searches: 4, empty: 1, opens: 2 }).run();
  source.insert(s.insightsQueries).values({ query: "canvas", people: 3, lastDay: "2026-11-27" }).run();
  source.insert(s.insightsQueryPeople).values({ query: "raro", person: "hash-1" }).run();
  source.insert(s.insightsKeys).values({ name: "2026-W48", secret: "segredo" }).run();
  source
    .insert(s.insightsVotes)
    .values({ voteKey: "voto-1", page: "/faq", version: "2026-11-01", helpful: 0, reason: "confusa", day: "2026-11-27" })
    .run();
  source
    .insert(s.insightsComments)
    .values({
      id: "c1",
      page: "/faq",
      version: "2026-11-01",
      helpful: 0,
      reason: "confusa",
      body: "Ação não ficou clara",
      userId: "u1",
      day: "2026-11-27",
    })
    .run();
  source
    .insert(s.auditChainHead)
    .values({
      lastId: AUDIT_ROWS + 1,
      lastHash: "h",
      prunedId: 0,
      prunedHash: "genesis",
      sealedSum: "0".repeat(64),
      updatedAt: CONFIRMED_AT,
    })
    .run();
}

const pgTables = Object.values(pgSchema).flatMap((value): PgTable[] => (is(value, PgTable) ? [value] : []));

async function targetCounts(db: Db): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of pgTables) counts[getTableName(table)] = await db.$count(table);
  return counts;
}

describe.skipIf(!process.env.TEST_PG_URL)("npm run db:copy (SQLite → PostgreSQL)", () => {
  let dir: string;
  let sourceFile: string;
  let sourceCounts: Record<string, number>;
  let targetUrl: string;
  let target: Db;
  const copy = (...extra: string[]) => runScript("scripts/db-copy.ts", ["--from", `sqlite:${sourceFile}`, "--to", targetUrl, ...extra]);

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "b1-db-copy-"));
    sourceFile = path.join(dir, "portal.sqlite");
    // The PostgreSQL pass sets DATABASE_URL; the source is built as a SQLite portal builds it.
    const migrated = runScript("scripts/db-migrate.ts", [], { DATABASE_URL: undefined, DATABASE_PATH: sourceFile });
    expect(migrated.status, migrated.stderr).toBe(0);
    const sqlite = new Database(sourceFile);
    const source = drizzle(sqlite, { schema: sqliteSchema });
    fillSource(source);
    sourceCounts = {};
    for (const table of Object.values(sqliteSchema).flatMap((value): SQLiteTable[] => (is(value, SQLiteTable) ? [value] : []))) {
      sourceCounts[getTableName(table)] = await source.$count(table);
    }
    sqlite.close();
    targetUrl = await createDatabase(process.env.TEST_PG_URL!);
    target = await openDatabase(targetUrl);
  });

  afterAll(async () => {
    if (target) await closeDatabase(target);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("copies every row of every table, with booleans, times and JSON text intact", { timeout: 60_000 }, async () => {
    expect(
      Object.values(sourceCounts).every((count) => count > 0),
      JSON.stringify(sourceCounts),
    ).toBe(true);
    const result = copy();
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toContain("Cópia concluída");
    expect(result.stdout).toMatch(new RegExp(`audit_logs\\s+${AUDIT_ROWS + 1}\\s+${AUDIT_ROWS + 1}`));

    expect(await targetCounts(target)).toEqual(sourceCounts);
    const p = pgSchema;
    const [ana] = await target.select().from(p.users).where(eq(p.users.id, "u1"));
    expect(ana).toMatchObject({ emailConfirmedAt: CONFIRMED_AT, createdAt: CONFIRMED_AT - 1, passwordHash: "$argon2id$x" });
    const [ze] = await target.select().from(p.users).where(eq(p.users.id, "u2"));
    expect(ze).toMatchObject({ fullName: "Zé Ção", emailConfirmedAt: null });
    // The SCIM versions and dates come as they were: the target's triggers do not move them while copying.
    const source = new Database(sourceFile, { readonly: true });
    const sourceZe = source.prepare("select resource_version, resource_modified_at from users where id = 'u2'").get() as Record<
      string,
      number
    >;
    const sourceGroup = source.prepare("select resource_version, updated_at from directory_groups where id = 'g1'").get() as Record<
      string,
      number
    >;
    source.close();
    expect(sourceZe.resource_version).toBeGreaterThan(1);
    expect({ resource_version: ze!.resourceVersion, resource_modified_at: ze!.resourceModifiedAt }).toEqual(sourceZe);
    const [group] = await target.select().from(p.directoryGroups);
    expect({ resource_version: group!.resourceVersion, updated_at: group!.updatedAt }).toEqual(sourceGroup);
    const roles = await target.select().from(p.roles);
    expect(roles.find((role) => role.name === "auditoria-externa")?.isSystem).toBe(false);
    expect(roles.find((role) => role.name === "admin")?.isSystem).toBe(true);
    const denied = await target.select().from(p.rolePermissions).where(eq(p.rolePermissions.canAccess, false));
    expect(denied).toHaveLength(1);
    const [oidcRole] = await target.select().from(p.userRoles).where(eq(p.userRoles.userId, "u2"));
    expect(oidcRole?.source).toBe("oidc");
    const [blocked] = await target.select().from(p.auditLogs).where(eq(p.auditLogs.result, "blocked"));
    expect(blocked?.actionDetails).toBe(DETAILS);
    const [secret] = await target.select().from(p.twoFactorSecrets);
    expect(secret).toMatchObject({ confirmedAt: null, lastUsedStep: 56_666_666 });

    // The identity sequences continue after the copied ids: the next audit row does not collide.
    const [next] = await target.insert(p.auditLogs).values({ actionType: "logout", result: "success" }).returning();
    expect(next!.id).toBe(AUDIT_ROWS + 2);
  });

  it(
    "refuses a target that already has users or audit rows and leaves it unchanged; --replace copies over it",
    { timeout: 60_000 },
    async () => {
      const before = await targetCounts(target);
      expect(before.audit_logs).toBe(AUDIT_ROWS + 2); // the copy plus the row written after it

      const refused = copy();
      expect(refused.status).toBe(1);
      expect(refused.stderr).toMatch(/já tem dados \(2 usuários, \d+ registros de auditoria\); nada foi copiado/);
      expect(refused.stderr).not.toMatch(/\n\s+at /); // a message, not a stack trace
      expect(await targetCounts(target)).toEqual(before);

      const replaced = copy("--replace");
      expect(replaced.status, replaced.stderr).toBe(0);
      expect(await targetCounts(target)).toEqual(sourceCounts);
    },
  );

  it("refuses a target that is not a PostgreSQL address or a source that is not a portal database", () => {
    const notPostgres = runScript("scripts/db-copy.ts", ["--from", `sqlite:${sourceFile}`, "--to", path.join(dir, "outro.sqlite")]);
    expect(notPostgres.status).toBe(1);
    expect(notPostgres.stderr).toContain("o destino precisa ser um endereço postgres://");

    const stranger = path.join(dir, "estranho.sqlite");
    const strangerDb = new Database(stranger);
    strangerDb.exec("create table x (y)");
    strangerDb.close();
    const notPortal = runScript("scripts/db-copy.ts", ["--from", `sqlite:${stranger}`, "--to", targetUrl]);
    expect(notPortal.status).toBe(1);
    expect(notPortal.stderr).toContain("não é um banco do portal");
  });
});
