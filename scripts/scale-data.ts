/**
 * Bulk fixtures for scale work (seed:scale, bench, tests): users, audit rows and sessions written
 * through the drizzle schema with one prepared insert per table inside a transaction.
 */
import { eq, sql } from "drizzle-orm";
import { auditLogs, roles, userRoles, users } from "../db/schema/index.ts";
import { AUDIT_ACTION_LABELS, type AuditResult } from "../src/lib/audit-actions.ts";
import type { Db } from "../src/lib/server/db.ts";
import { hashPassword } from "../src/lib/server/password.ts";
import { createSession } from "../src/lib/server/session.ts";

export const SCALE_PASSWORD = "Senha@Escala1";
const YEAR_MS = 365 * 24 * 60 * 60 * 1000;
const BATCH = 20_000;

/** Deterministic pseudo-random numbers so two runs build the same data. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1_664_525 + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

function inBatches(db: Db, count: number, write: (index: number) => void) {
  for (let start = 0; start < count; start += BATCH) {
    db.transaction(() => {
      for (let index = start; index < Math.min(count, start + BATCH); index++) write(index);
    });
  }
}

/** `count` confirmed users `pessoa N` (pessoa-N@b1.example.com), all with SCALE_PASSWORD, role visualizador. */
export async function insertScaleUsers(db: Db, count: number, now = Date.now()): Promise<string[]> {
  const passwordHash = await hashPassword(SCALE_PASSWORD);
  const viewer = db.select({ id: roles.id }).from(roles).where(eq(roles.name, "visualizador")).get();
  const insertUser = db
    .insert(users)
    .values({
      id: sql.placeholder("id"),
      email: sql.placeholder("email"),
      fullName: sql.placeholder("fullName"),
      passwordHash,
      emailConfirmedAt: now,
      createdAt: sql.placeholder("createdAt"),
    })
    .prepare();
  const insertRole = db
    .insert(userRoles)
    .values({ userId: sql.placeholder("userId"), roleId: viewer!.id })
    .prepare();
  const ids: string[] = [];
  inBatches(db, count, (index) => {
    const id = crypto.randomUUID();
    insertUser.run({ id, email: `pessoa-${index}@b1.example.com`, fullName: `Pessoa ${index}`, createdAt: now - YEAR_MS });
    insertRole.run({ userId: id });
    ids.push(id);
  });
  return ids;
}

const ACTIONS = Object.keys(AUDIT_ACTION_LABELS);
const RESULTS: AuditResult[] = ["success", "success", "success", "success", "failure", "blocked"];

/** `count` audit rows spread evenly over the year before `now`; ~1 in 10 without a user. */
export function insertAuditRows(db: Db, count: number, userIds: readonly string[], now = Date.now(), seed = 1): void {
  const next = random(seed);
  const insert = db
    .insert(auditLogs)
    .values({
      createdAt: sql.placeholder("createdAt"),
      userId: sql.placeholder("userId"),
      actionType: sql.placeholder("actionType"),
      result: sql.placeholder("result"),
      actionDetails: sql.placeholder("actionDetails"),
      ipAddress: sql.placeholder("ipAddress"),
      userAgent: sql.placeholder("userAgent"),
    })
    .prepare();
  const start = now - YEAR_MS;
  inBatches(db, count, (index) => {
    const userId = userIds.length && next() > 0.1 ? userIds[Math.floor(next() * userIds.length)]! : null;
    insert.run({
      createdAt: Math.floor(start + (index / count) * YEAR_MS),
      userId,
      actionType: ACTIONS[Math.floor(next() * ACTIONS.length)]!,
      result: RESULTS[Math.floor(next() * RESULTS.length)]!,
      actionDetails: JSON.stringify({ n: index }),
      ipAddress: `10.0.${Math.floor(next() * 255)}.${Math.floor(next() * 255)}`,
      userAgent: "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36",
    });
  });
}

/** `count` sessions opened through the app's own code at moments spread over the last year. */
export function insertSessions(db: Db, count: number, userIds: readonly string[], now = Date.now(), seed = 2): void {
  const next = random(seed);
  inBatches(db, count, (index) => {
    createSession(
      db,
      userIds[index % userIds.length]!,
      { ipAddress: "10.1.0.1", userAgent: "seed-scale" },
      now - Math.floor(next() * YEAR_MS),
    );
  });
}
