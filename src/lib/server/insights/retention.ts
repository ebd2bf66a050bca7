/**
 * Insights retention: aggregates, votes and comments whose day (or week) is older than
 * INSIGHTS_RETENTION_DAYS are deleted in batches by the maintenance scheduler; week keys of weeks
 * that ended are deleted too, so no sketch can be tested against a person afterwards.
 */
import { and, like, notInArray, or, sql, type AnyColumn, type SQL } from "drizzle-orm";
import {
  insightsComments,
  insightsKeys,
  insightsQueries,
  insightsQueryPeople,
  insightsReaders,
  insightsReads,
  insightsSearches,
  insightsVotes,
} from "../../../../db/schema/index.ts";
import type { Db } from "../data/db.ts";
import { isoWeekOf } from "../reading/digest-week.ts";
import { dayOf, daysBefore } from "./calendar.ts";
import { forgetInsightsKey, quarterOf, searcherKeyName, voteKeyName, weekKeyName } from "./keys.ts";

/** Rows per delete statement: each batch is a short write, so requests interleave with a big prune. */
export const INSIGHTS_PRUNE_BATCH = 2000;

type Pruned =
  | typeof insightsReads
  | typeof insightsReaders
  | typeof insightsSearches
  | typeof insightsVotes
  | typeof insightsComments
  | typeof insightsQueryPeople
  | typeof insightsQueries;

/** Deletes, batch by batch, the rows of `table` where `where` holds (row-value IN over its key columns: both engines). */
async function pruneTable(db: Db, table: Pruned, keys: AnyColumn[], where: SQL, batch: number): Promise<number> {
  const columns = sql.join(keys, sql`, `);
  let deleted = 0;
  for (;;) {
    // Each batch in a transaction of its own: on SQLite a statement outside one while another is open is refused (db.ts).
    const rows = await db.transaction((tx) =>
      tx
        .delete(table)
        .where(sql`(${columns}) in (select ${columns} from ${table} where ${where} limit ${batch})`)
        .returning({ key: sql<number>`1` }),
    );
    deleted += rows.length;
    if (rows.length < batch) return deleted;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

export interface InsightsPruned {
  rows: number;
  keys: number;
}

/** Deletes what is older than `retentionDays` (days counted in `timeZone`); returns how many rows and keys went. */
export async function pruneInsights(
  db: Db,
  retentionDays: number,
  timeZone: string,
  now = Date.now(),
  batch = INSIGHTS_PRUNE_BATCH,
): Promise<InsightsPruned> {
  const cutoff = daysBefore(dayOf(now, timeZone), retentionDays);
  const cutoffWeek = isoWeekOf(Date.parse(`${cutoff}T12:00:00Z`), "UTC");
  let rows = 0;
  rows += await pruneTable(
    db,
    insightsReads,
    [insightsReads.page, insightsReads.day, insightsReads.role],
    sql`${insightsReads.day} < ${cutoff}`,
    batch,
  );
  rows += await pruneTable(
    db,
    insightsReaders,
    [insightsReaders.page, insightsReaders.week, insightsReaders.register],
    sql`${insightsReaders.week} < ${cutoffWeek}`,
    batch,
  );
  rows += await pruneTable(
    db,
    insightsSearches,
    [insightsSearches.query, insightsSearches.day],
    sql`${insightsSearches.day} < ${cutoff}`,
    batch,
  );
  rows += await pruneTable(db, insightsVotes, [insightsVotes.voteKey], sql`${insightsVotes.day} < ${cutoff}`, batch);
  rows += await pruneTable(db, insightsComments, [insightsComments.id], sql`${insightsComments.day} < ${cutoff}`, batch);
  // A query nobody searched within the period goes with the hashes of its people.
  rows += await pruneTable(
    db,
    insightsQueryPeople,
    [insightsQueryPeople.query, insightsQueryPeople.person],
    sql`${insightsQueryPeople.query} in (select "query" from "insights_queries" where "last_day" < ${cutoff})`,
    batch,
  );
  rows += await pruneTable(db, insightsQueries, [insightsQueries.query], sql`${insightsQueries.lastDay} < ${cutoff}`, batch);
  // The quarter's rotation: searchers hashed under an earlier quarter's key go (the people of a query are counted
  // per quarter), and so do the salts of earlier quarters' vote and searcher keys (below): nobody, INSIGHTS_KEY
  // in hand or not, can then link a vote or a search of that quarter to a person.
  const today = dayOf(now, timeZone);
  const quarter = quarterOf(today);
  rows += await pruneTable(
    db,
    insightsQueryPeople,
    [insightsQueryPeople.query, insightsQueryPeople.person],
    sql`${insightsQueryPeople.person} not like ${`${quarter}:%`}`,
    batch,
  );
  const quarterKeys = [voteKeyName(today), searcherKeyName(today)];
  const oldQuarters = await db
    .delete(insightsKeys)
    .where(and(or(like(insightsKeys.name, "voto:%"), like(insightsKeys.name, "consulta:%")), notInArray(insightsKeys.name, quarterKeys)))
    .returning({ name: insightsKeys.name });
  for (const { name } of oldQuarters) forgetInsightsKey(db, name);
  // Week keys: this week's and last week's stay (a flush may still carry last week's readers).
  const week = isoWeekOf(now, timeZone);
  const lastWeek = isoWeekOf(now - 7 * 86_400_000, timeZone);
  const keep = [weekKeyName(week), weekKeyName(lastWeek)];
  const gone = await db
    .delete(insightsKeys)
    .where(and(like(insightsKeys.name, "semana:%"), notInArray(insightsKeys.name, keep)))
    .returning({ name: insightsKeys.name });
  for (const { name } of gone) forgetInsightsKey(db, name);
  return { rows, keys: gone.length + oldQuarters.length };
}
