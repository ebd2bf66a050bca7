/**
 * Insights (issue 43): aggregates only. No row names who read a page; who searched a query is a keyed
 * hash kept only until 3 different people searched it; an anonymous comment carries no account id.
 * Days are `YYYY-MM-DD` and weeks `2026-W48` in the display time zone (TZ_DISPLAY).
 */
import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { users } from "./index.ts";

/** Pages served to signed-in people, summed per page, day and role (`*` = everyone, once per read). */
export const insightsReads = sqliteTable(
  "insights_reads",
  {
    page: text("page").notNull(),
    day: text("day").notNull(),
    role: text("role").notNull(),
    reads: integer("reads", { mode: "number" }).notNull(),
  },
  // (role, day, page, reads) covers the per-page sums of a period for one role without touching the table.
  (table) => [
    primaryKey({ columns: [table.page, table.day, table.role] }),
    index("insights_reads_role_day_idx").on(table.role, table.day, table.page, table.reads),
  ],
);

/** Distinct readers per page and week: a HyperLogLog sketch stored one register per row (merged with max). */
export const insightsReaders = sqliteTable(
  "insights_readers",
  {
    page: text("page").notNull(),
    week: text("week").notNull(),
    register: integer("register", { mode: "number" }).notNull(),
    rank: integer("rank", { mode: "number" }).notNull(),
  },
  // Retention deletes by week. The index holds no rank: a flush raising a register then changes no index entry
  // (migrations 0025 on SQLite, 0021 on PostgreSQL; the estimates read insights_reader_weeks, nothing reads ranks by week).
  (table) => [primaryKey({ columns: [table.page, table.week, table.register] }), index("insights_readers_week_idx").on(table.week)],
);

/**
 * Reads summed per page, week and role, kept by database triggers (migration 0023): every insert,
 * update or delete of an insights_reads row changes its week's row in the same transaction, so a
 * week's row is always the sum of its days (flushes, retention and any other writer alike). `week`
 * is the Monday-based week number (days since 1970-01-01 plus 3, divided by 7), computed the same way
 * by both engines and by calendar.ts. A period's whole weeks are read here (~52 rows a page for a
 * year instead of 365 × roles).
 */
export const insightsReadsWeekly = sqliteTable(
  "insights_reads_weekly",
  {
    page: text("page").notNull(),
    week: integer("week", { mode: "number" }).notNull(),
    role: text("role").notNull(),
    reads: integer("reads", { mode: "number" }).notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.page, table.week, table.role] }),
    index("insights_reads_weekly_role_idx").on(table.role, table.week, table.page, table.reads),
  ],
);

/**
 * Each readers sketch (page, week) summarised by triggers on insights_readers (migration 0023): how
 * many registers are set and Σ 2^(52 − rank) over them, an exact integer (a rank past 52 adds less
 * than 2^-52 of a register: nothing). HyperLogLog estimates from exactly these two numbers, so the
 * report reads one row per sketch instead of 1,024.
 */
export const insightsReaderWeeks = sqliteTable(
  "insights_reader_weeks",
  {
    page: text("page").notNull(),
    week: text("week").notNull(),
    filled: integer("filled", { mode: "number" }).notNull(),
    harmonic: integer("harmonic", { mode: "number" }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.page, table.week] }), index("insights_reader_weeks_week_idx").on(table.week, table.page)],
);

/** Searches per normalised query and day: how many, how many found nothing, how many opened a result. */
export const insightsSearches = sqliteTable(
  "insights_searches",
  {
    query: text("query").notNull(),
    day: text("day").notNull(),
    searches: integer("searches", { mode: "number" }).notNull(),
    empty: integer("empty", { mode: "number" }).notNull(),
    opens: integer("opens", { mode: "number" }).notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.query, table.day] }),
    index("insights_searches_day_idx").on(table.day, table.query, table.searches, table.empty, table.opens),
  ],
);

/**
 * Each query's searches summed over every day kept, by triggers on insights_searches (migration
 * 0023). A long period is read as these totals minus the few days before it (see report.ts), so a
 * year costs the days outside it instead of every day inside it.
 */
export const insightsSearchTotals = sqliteTable("insights_search_totals", {
  query: text("query").primaryKey(),
  searches: integer("searches", { mode: "number" }).notNull(),
  empty: integer("empty", { mode: "number" }).notNull(),
  opens: integer("opens", { mode: "number" }).notNull(),
});

/**
 * A query's k-anonymity state: shown once `people` reached 3 (then its `insights_query_people` rows are gone).
 * `query` here and in insights_searches, insights_search_totals and insights_query_people is the keyed
 * hash of the text (store.ts); `text` is written only once 3 people searched it (issue 62).
 */
export const insightsQueries = sqliteTable(
  "insights_queries",
  {
    query: text("query").primaryKey(),
    people: integer("people", { mode: "number" }).notNull(),
    lastDay: text("last_day").notNull(),
    text: text("text"),
  },
  (table) => [index("insights_queries_last_day_idx").on(table.lastDay)],
);

/** Keyed hashes of who searched a query not yet shown (removed at the threshold or by retention). */
export const insightsQueryPeople = sqliteTable(
  "insights_query_people",
  {
    query: text("query").notNull(),
    person: text("person").notNull(),
  },
  (table) => [primaryKey({ columns: [table.query, table.person] })],
);

/**
 * Random salts of the keyed hashes' keys (each key is HMAC(INSIGHTS_KEY, name, salt): keys.ts; useless without
 * INSIGHTS_KEY, which is never in the database): `consulta-texto`, `voto:<quarter>`, `consulta:<quarter>` (deleted once
 * the quarter is over) and `semana:<week>` (deleted once the week is over).
 */
export const insightsKeys = sqliteTable("insights_keys", {
  name: text("name").primaryKey(),
  secret: text("secret").notNull(),
  createdAt: integer("created_at", { mode: "number" })
    .notNull()
    .default(sql`(unixepoch('subsec') * 1000)`),
});

/** "Esta página ajudou?": one row per person, page and version, found by a keyed hash (never the account id). */
export const insightsVotes = sqliteTable(
  "insights_votes",
  {
    voteKey: text("vote_key").primaryKey(),
    page: text("page").notNull(),
    version: text("version").notNull(),
    helpful: integer("helpful", { mode: "number" }).notNull(),
    reason: text("reason"),
    day: text("day").notNull(),
  },
  (table) => [
    index("insights_votes_page_idx").on(table.page, table.version),
    index("insights_votes_day_idx").on(table.day, table.page, table.helpful),
  ],
);

/** Votes counted per page, week (of the vote's day, as insights_reads_weekly) and answer, kept by triggers on insights_votes. */
export const insightsVotesWeekly = sqliteTable(
  "insights_votes_weekly",
  {
    page: text("page").notNull(),
    week: integer("week", { mode: "number" }).notNull(),
    helpful: integer("helpful", { mode: "number" }).notNull(),
    votes: integer("votes", { mode: "number" }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.page, table.week, table.helpful] })],
);

/** Comments of the feedback form; `user_id` only when the person ticked "Pode me contatar sobre isto". */
export const insightsComments = sqliteTable(
  "insights_comments",
  {
    id: text("id").primaryKey(),
    page: text("page").notNull(),
    version: text("version").notNull(),
    helpful: integer("helpful", { mode: "number" }).notNull(),
    reason: text("reason"),
    body: text("body").notNull(),
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
    day: text("day").notNull(),
    status: text("status").notNull().default("nova"),
  },
  (table) => [index("insights_comments_page_idx").on(table.page, table.day), index("insights_comments_day_idx").on(table.day)],
);
