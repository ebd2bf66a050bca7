/**
 * The few places where SQLite and PostgreSQL need different SQL, each written once. Everything
 * else in the portal is the same drizzle query on both engines (see db.ts).
 */
import { createHash } from "node:crypto";
import { sql, type AnyColumn, type SQL } from "drizzle-orm";
import { ENGINE, auditLogs, users } from "../../../../db/schema/index.ts";
import type { Tx } from "./db.ts";

const onPostgres = ENGINE === "postgres";

/** A JSON array of the values a correlated subquery yields (`[]` when none), read as a JS array. */
export function jsonArrayOf(select: { value: SQL; from: SQL; distinct?: boolean }): SQL<string[]> {
  const distinct = select.distinct ? sql`distinct ` : sql``;
  return onPostgres
    ? sql<string[]>`(select coalesce(json_agg(${distinct}${select.value}), '[]'::json) ${select.from})`
    : sql<string[]>`(select json_group_array(${distinct}${select.value}) ${select.from})`.mapWith(
        (text: string) => JSON.parse(text) as string[],
      );
}

/** `exists (subquery)` read as a boolean (SQLite answers 0/1, PostgreSQL true/false). */
export function existsFlag(subquery: SQL): SQL<boolean> {
  return sql<boolean>`exists(${subquery})`.mapWith((value: unknown) => value === true || value === 1);
}

/** Adds one to `count` in a JSON-object text column (starting from 1 when absent). */
export function incrementJsonCount(column: AnyColumn): SQL {
  return onPostgres
    ? sql`jsonb_set(coalesce(${column}::jsonb, '{}'::jsonb), '{count}', to_jsonb(coalesce((${column}::jsonb ->> 'count')::integer, 1) + 1))::text`
    : sql`json_set(coalesce(${column}, '{}'), '$.count', coalesce(json_extract(${column}, '$.count'), 1) + 1)`;
}

/**
 * What a writer may need to hold alone, across connections and instances:
 * - `audit-chain`: appending to (or pruning) the audit chain, whose rows link to the previous one;
 * - `admin-changes`: changing who is an admin, so the last-admin rule holds when two admins act at once;
 * - `seeding`: seeding, so two instances starting at once do not both insert a new page;
 * - `accounts`: deciding who holds an e-mail address (creating a user, a corporate sign-in, purging pending sign-ups);
 *   a directory's create holds it shared, with locks on the identities it claims (holdIdentityLocks).
 */
const ADVISORY_LOCKS = { "audit-chain": 4_010_001, "admin-changes": 4_010_002, seeding: 4_010_003, accounts: 4_010_004 } as const;

/**
 * Inside a transaction, waits until no other transaction holds `lock`. SQLite transactions
 * already run one at a time (BEGIN IMMEDIATE); on PostgreSQL it is a transaction-scoped advisory
 * lock, released at commit or rollback.
 */
export async function holdLock(tx: Tx, lock: keyof typeof ADVISORY_LOCKS): Promise<void> {
  if (onPostgres) await tx.execute(sql`select pg_advisory_xact_lock(${ADVISORY_LOCKS[lock]})`);
}

/** The first key of the two-key advisory locks that stand for one identity (PostgreSQL keeps two-key locks apart from one-key ones). */
const IDENTITY_LOCK_SPACE = 4_010_005;

/** A 32-bit slot for an identity key; two keys sharing a slot only wait for each other. */
function identitySlot(key: string): number {
  return createHash("sha256").update(key).digest().readInt32BE(0);
}

/**
 * Inside a transaction, claims identities (e.g. `email:…`, `external:…`) without holding every
 * other writer back: on PostgreSQL the `accounts` lock in shared mode — so whoever holds it
 * (sign-up, corporate sign-in, pending purge, directory updates) still waits for this transaction
 * and is waited for — plus one exclusive lock per identity, taken in ascending slot order so two
 * claimants never wait on each other in a circle. Two transactions claiming a common identity run
 * one at a time; claims of different identities run at once. SQLite already runs writers one at a time.
 */
export async function holdIdentityLocks(tx: Tx, keys: readonly string[]): Promise<void> {
  if (!onPostgres) return;
  await tx.execute(sql`select pg_advisory_xact_lock_shared(${ADVISORY_LOCKS.accounts})`);
  const slots = [...new Set(keys.map(identitySlot))].sort((a, b) => a - b);
  for (const slot of slots) await tx.execute(sql`select pg_advisory_xact_lock(${IDENTITY_LOCK_SPACE}::int, ${slot}::int)`);
}

/**
 * `count` new ids for audit_logs (SQLite AUTOINCREMENT, PostgreSQL identity), ascending, without
 * inserting: a row whose hash covers its id is then written whole in one insert. Only under a lock
 * that keeps every other inserter out (the chain lock; SQLite's write transaction); on PostgreSQL
 * the identity's sequence hands them out, so even a rolled-back reservation is never handed out twice.
 */
export async function reserveAuditIds(tx: Tx, count: number): Promise<number[]> {
  if (onPostgres) {
    const rows = await tx
      .select({ id: sql<number>`nextval(pg_get_serial_sequence('audit_logs', 'id'))::integer`.mapWith(Number) })
      .from(sql`generate_series(1, ${count}::int)`);
    return rows.map((row) => row.id).sort((a, b) => a - b);
  }
  const [row] = await tx
    .select({
      top: sql<number>`max(coalesce((select seq from sqlite_sequence where name = 'audit_logs'), 0), coalesce(max(${auditLogs.id}), 0))`.mapWith(Number),
    })
    .from(auditLogs);
  return Array.from({ length: count }, (_, i) => row!.top + 1 + i);
}

/**
 * A column in a comparison the planner should not use an index for (SQLite's unary `+`), so it
 * picks the (filter, created_at, id) index the ORDER BY walks. PostgreSQL's planner costs both.
 */
export function withoutIndex(column: AnyColumn): SQL {
  return onPostgres ? sql`${column}` : sql`+${column}`;
}

/** `column in (…ids)` with the list as one JSON parameter, however long (no limit on bound values). */
export function inJsonList(column: SQL | AnyColumn, ids: readonly string[]): SQL {
  const list = JSON.stringify(ids);
  return onPostgres
    ? sql`${column} in (select json_array_elements_text(${list}::json))`
    : sql`${column} in (select value from json_each(${list}))`;
}

/**
 * Rows passed as one JSON parameter (an array of arrays), read back as a `select` of typed columns in their
 * order: the source of a bulk insert or upsert (`insert(table).select(…)`), one short statement whatever the
 * number of rows. Drizzle's `values()` builds every row's SQL in JavaScript, ~20 µs a row.
 */
export function selectJsonRows(rows: readonly (readonly (string | number | null)[])[], types: readonly ("text" | "integer")[]): SQL {
  const json = JSON.stringify(rows);
  if (onPostgres) {
    const columns = types.map((type, index) => `(value ->> ${index})::${type}`).join(", ");
    return sql`select ${sql.raw(columns)} from json_array_elements(${json}::json) as rows(value)`;
  }
  const columns = types.map((_, index) => `value ->> ${index}`).join(", ");
  // `where true`: without a WHERE, SQLite reads an upsert's ON CONFLICT after this select as a join's ON.
  return sql`select ${sql.raw(columns)} from json_each(${json}) where true`;
}

/** PostgreSQL's accent folding for the user search: the very expression users_search_trgm_idx indexes (migration 0006). */
const PG_FOLD_FROM = "ÁÀÂÃÄÅáàâãäåÉÈÊËéèêëÍÌÎÏíìîïÓÒÔÕÖóòôõöÚÙÛÜúùûüÇçÑñÝýÿ";
const PG_FOLD_TO = "aaaaaaaaaaaaeeeeeeeeiiiiiiiioooooooooouuuuuuuuccnnyyy";
/** Shorter needles have no trigram: they are matched by a scan. */
const TRIGRAM = 3;

/**
 * Users (a condition on `users`) whose e-mail or name contains `needle`, already folded by
 * normalizeForSearch (lower case, no accents): an index read on both engines — SQLite's
 * users_search trigram table (migration 0010), PostgreSQL's trigram index on the folded text.
 */
export function userTextMatches(needle: string): SQL {
  const like = `%${needle.replace(/[%_\\]/g, (c) => `\\${c}`)}%`;
  if (onPostgres)
    return sql`translate(lower(${users.fullName} || ' ' || ${users.email}), ${sql.raw(`'${PG_FOLD_FROM}'`)}, ${sql.raw(`'${PG_FOLD_TO}'`)}) like ${like} escape '\\'`;
  if (needle.length < TRIGRAM) return sql`(lower(${users.email}) like ${like} escape '\\' or lower(${users.fullName}) like ${like} escape '\\')`;
  return sql`${users.id} in (select user_id from users_search where users_search match ${`"${needle.replace(/"/g, '""')}"`})`;
}

/** The current time in UTC milliseconds, computed by the database. */
export const nowMillis: SQL<number> = onPostgres
  ? sql<number>`(floor(extract(epoch from clock_timestamp()) * 1000))::bigint`
  : sql<number>`cast(unixepoch('subsec') * 1000 as integer)`;

export { onPostgres };
