/**
 * Bulk fixtures for scale work (seed:scale, bench, tests): users, audit rows and sessions written
 * through the drizzle schema in multi-row inserts inside transactions (both engines).
 */
import { eq } from "drizzle-orm";
import { auditLogs, roles, userRoles, users } from "../../db/schema/index.ts";
import { AUDIT_ACTION_LABELS, type AuditResult } from "../../src/lib/audit/actions.ts";
import type { Db, Tx } from "../../src/lib/server/data/db.ts";
import { hashPassword } from "../../src/lib/server/auth/password/hash.ts";
import { createSession } from "../../src/lib/server/sessions/session.ts";

export const SCALE_PASSWORD = "Senha@Escala1";
const YEAR_MS = 365 * 24 * 60 * 60 * 1000;
const BATCH = 20_000;
/** Rows per INSERT statement (under SQLite's limit of bound values). */
const ROWS_PER_INSERT = 500;

/** Deterministic pseudo-random numbers so two runs build the same data. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1_664_525 + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

/** Writes `count` rows in multi-row inserts of `ROWS_PER_INSERT`, one transaction per `BATCH` rows. */
async function inBatches<Row>(db: Db, count: number, row: (index: number) => Row, insert: (tx: Tx, rows: Row[]) => Promise<unknown>) {
  for (let start = 0; start < count; start += BATCH) {
    await db.transaction(async (tx) => {
      for (let from = start; from < Math.min(count, start + BATCH); from += ROWS_PER_INSERT) {
        const rows: Row[] = [];
        for (let index = from; index < Math.min(count, start + BATCH, from + ROWS_PER_INSERT); index++) rows.push(row(index));
        await insert(tx, rows);
      }
    });
  }
}

/** `count` confirmed users `pessoa N` (pessoa-N@b1.example.com), all with SCALE_PASSWORD, role visualizador. */
export async function insertScaleUsers(db: Db, count: number, now = Date.now()): Promise<string[]> {
  const passwordHash = await hashPassword(SCALE_PASSWORD);
  const [viewer] = await db.select({ id: roles.id }).from(roles).where(eq(roles.name, "visualizador"));
  const ids = Array.from({ length: count }, () => crypto.randomUUID());
  await inBatches(
    db,
    count,
    (index) => ({
      id: ids[index]!,
      email: `pessoa-${index}@b1.example.com`,
      fullName: `Pessoa ${index}`,
      passwordHash,
      emailConfirmedAt: now,
      createdAt: now - YEAR_MS,
    }),
    (tx, rows) => tx.insert(users).values(rows),
  );
  await inBatches(
    db,
    count,
    (index) => ({ userId: ids[index]!, roleId: viewer!.id }),
    (tx, rows) => tx.insert(userRoles).values(rows),
  );
  return ids;
}

const ACTIONS = Object.keys(AUDIT_ACTION_LABELS);
const RESULTS: AuditResult[] = ["success", "success", "success", "success", "failure", "blocked"];

/** `count` audit rows spread evenly over the year before `now`; ~1 in 10 without a user. */
export async function insertAuditRows(db: Db, count: number, userIds: readonly string[], now = Date.now(), seed = 1): Promise<void> {
  const next = random(seed);
  const start = now - YEAR_MS;
  await inBatches(
    db,
    count,
    (index) => ({
      createdAt: Math.floor(start + (index / count) * YEAR_MS),
      userId: userIds.length && next() > 0.1 ? userIds[Math.floor(next() * userIds.length)]! : null,
      actionType: ACTIONS[Math.floor(next() * ACTIONS.length)]!,
      result: RESULTS[Math.floor(next() * RESULTS.length)]!,
      actionDetails: JSON.stringify({ n: index }),
      ipAddress: `10.0.${Math.floor(next() * 255)}.${Math.floor(next() * 255)}`,
      userAgent: "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36",
    }),
    (tx, rows) => tx.insert(auditLogs).values(rows),
  );
}

/** `count` sessions (the app's token format) opened at moments spread over the last year. */
export async function insertSessions(db: Db, count: number, userIds: readonly string[], now = Date.now(), seed = 2): Promise<void> {
  const next = random(seed);
  for (let index = 0; index < count; index += ROWS_PER_INSERT) {
    const batch = [];
    for (let i = index; i < Math.min(count, index + ROWS_PER_INSERT); i++) {
      batch.push(
        createSession(
          db,
          userIds[i % userIds.length]!,
          { ipAddress: "10.1.0.1", userAgent: "seed-scale" },
          now - Math.floor(next() * YEAR_MS),
        ),
      );
    }
    await Promise.all(batch);
  }
}
