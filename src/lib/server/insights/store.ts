/**
 * Writing Insights' sums: one transaction per flush, one batched upsert per table that adds this
 * instance's deltas (`reads = reads + excluded.reads`; sketch registers keep the larger rank), so any
 * number of instances add up exactly and no row is read first. A query is stored under a keyed hash
 * of its text (`consulta-texto`) in every row; its text is written (insights_queries.text) only when
 * K_ANONYMITY people have searched it, so a search fewer people made is never stored in clear.
 * Searchers are hashed here with the quarter's `consulta:<quarter>` key and kept only until the query
 * reaches K_ANONYMITY people (or the quarter ends: retention.ts).
 */
import { and, eq, like, lt, sql, type AnyColumn } from "drizzle-orm";
import { insightsQueries, insightsQueryPeople, insightsReaders, insightsReads, insightsSearches } from "../../../../db/schema/index.ts";
import type { Db, Tx } from "../data/db.ts";
import { inJsonList, onPostgres, selectJsonRows } from "../data/dialect.ts";
import { HLL_REGISTERS, readerRegister } from "./hll.ts";
import { insightsKey, keyedHash, quarterOf, QUERY_TEXT_KEY, searcherKeyName, weekKeyName } from "./keys.ts";

/** A query is shown only once this many different people searched it. */
export const K_ANONYMITY = 3;

export interface SearchSums {
  searches: number;
  empty: number;
  opens: number;
}

/** What an instance counted since its last flush; keys join their parts with NUL. */
export interface Pending {
  /** page␀day␀role → reads. */
  reads: Map<string, number>;
  /** page␀week → user ids (hashed at the flush, never stored): the readers counted before the week's key was at hand. */
  readers: Map<string, Set<string>>;
  /** page␀week → the readers sketch's ranks raised since the last flush (HLL_REGISTERS registers; the collector hashes each reader). */
  sketches: Map<string, Uint8Array>;
  /** query␀day → sums. */
  searches: Map<string, SearchSums>;
  /** query␀day → user ids (hashed at the flush while the query is below K_ANONYMITY). */
  searchers: Map<string, Set<string>>;
}

/** The stored value plus the new delta (qualified: PostgreSQL finds a bare name ambiguous next to `excluded`). */
const added = (column: AnyColumn) => sql`${column} + excluded.${sql.identifier(column.name)}`;
/** The larger of the stored and the new value. */
const larger = (column: AnyColumn) => sql`${sql.raw(onPostgres ? "greatest" : "max")}(${column}, excluded.${sql.identifier(column.name)})`;

/**
 * The largest rank this instance has written per sketch (`page␀week` → 1,024 ranks): an update that
 * cannot raise a register is not sent. After the first few hundred readers of a page and week almost
 * every reader is such an update, so a flush writes a handful of registers instead of one per reader.
 */
export type WrittenRanks = Map<string, Uint8Array>;

export async function flushInsights(db: Db, batch: Pending, written: WrittenRanks = new Map()): Promise<void> {
  // Keys first (outside the transaction: inserting a key is idempotent and PostgreSQL keeps no session state).
  const weekKeys = new Map<string, Buffer>();
  for (const key of batch.readers.keys()) {
    const week = key.split("\u0000")[1]!;
    if (!weekKeys.has(week)) weekKeys.set(week, await insightsKey(db, weekKeyName(week)));
  }
  const textKey = batch.searches.size > 0 || batch.searchers.size > 0 ? await insightsKey(db, QUERY_TEXT_KEY) : null;
  /** Quarter → the searchers' key of that quarter (a batch spans two only at a quarter's first flush). */
  const searcherKeys = new Map<string, Buffer>();
  for (const key of batch.searchers.keys()) {
    const day = key.split("\u0000")[1]!;
    if (!searcherKeys.has(quarterOf(day))) searcherKeys.set(quarterOf(day), await insightsKey(db, searcherKeyName(day)));
  }
  // A sketch this instance has not written yet (since it started): its stored ranks are read first, once per
  // page and week, so its first flush sends only the updates that raise a register, like every later one.
  for (const key of new Set([...batch.readers.keys(), ...batch.sketches.keys()])) {
    if (written.has(key)) continue;
    const [page, week] = key.split("\u0000") as [string, string];
    const stored = await db
      .select({ register: insightsReaders.register, rank: insightsReaders.rank })
      .from(insightsReaders)
      .where(and(eq(insightsReaders.page, page), eq(insightsReaders.week, week)));
    const ranks = new Uint8Array(HLL_REGISTERS);
    for (const { register, rank } of stored) if (register >= 0 && register < HLL_REGISTERS) ranks[register] = rank;
    if (written.size >= 2000) written.clear();
    written.set(key, ranks);
  }

  const reads: [string, string, string, number][] = [];
  for (const [key, count] of batch.reads) {
    const [page, day, role] = key.split("\u0000") as [string, string, string];
    reads.push([page, day, role, count]);
  }
  /** page␀week␀register → the update that raises it most. */
  const registers = new Map<string, [page: string, week: string, register: number, rank: number]>();
  for (const [key, people] of batch.readers) {
    const [page, week] = key.split("\u0000") as [string, string];
    const weekKey = weekKeys.get(week)!;
    const ranks = written.get(key);
    for (const person of people) {
      const { register, rank } = readerRegister(weekKey, person, page);
      if ((ranks?.[register] ?? 0) >= rank) continue;
      const id = `${key}\u0000${register}`;
      const known = registers.get(id);
      if (!known || known[3] < rank) registers.set(id, [page, week, register, rank]);
    }
  }
  for (const [key, sketch] of batch.sketches) {
    const [page, week] = key.split("\u0000") as [string, string];
    const ranks = written.get(key);
    for (let register = 0; register < sketch.length; register++) {
      const rank = sketch[register]!;
      if (rank === 0 || (ranks?.[register] ?? 0) >= rank) continue;
      const id = `${key}\u0000${register}`;
      const known = registers.get(id);
      if (!known || known[3] < rank) registers.set(id, [page, week, register, rank]);
    }
  }
  const searches: [string, string, number, number, number][] = [];
  /** The query's text → its keyed hash, the only form stored until K_ANONYMITY people searched it. */
  const hashes = new Map<string, string>();
  const hashOf = (query: string) => {
    let hashed = hashes.get(query);
    if (hashed === undefined) hashes.set(query, (hashed = queryHash(textKey!, query)));
    return hashed;
  };
  for (const [key, sums] of batch.searches) {
    const [query, day] = key.split("\u0000") as [string, string];
    searches.push([hashOf(query), day, sums.searches, sums.empty, sums.opens]);
  }
  const searchers: Searcher[] = [];
  for (const [key, people] of batch.searchers) {
    const [query, day] = key.split("\u0000") as [string, string];
    for (const userId of people) searchers.push({ query, hash: hashOf(query), day, userId });
  }

  await db.transaction(async (tx) => {
    if (reads.length > 0)
      await tx
        .insert(insightsReads)
        .select(selectJsonRows(reads, ["text", "text", "text", "integer"]))
        .onConflictDoUpdate({
          target: [insightsReads.page, insightsReads.day, insightsReads.role],
          set: { reads: added(insightsReads.reads) },
        });
    if (registers.size > 0)
      await tx
        .insert(insightsReaders)
        .select(selectJsonRows([...registers.values()], ["text", "text", "integer", "integer"]))
        .onConflictDoUpdate({
          target: [insightsReaders.page, insightsReaders.week, insightsReaders.register],
          set: { rank: larger(insightsReaders.rank) },
        });
    if (searches.length > 0)
      await tx
        .insert(insightsSearches)
        .select(selectJsonRows(searches, ["text", "text", "integer", "integer", "integer"]))
        .onConflictDoUpdate({
          target: [insightsSearches.query, insightsSearches.day],
          set: { searches: added(insightsSearches.searches), empty: added(insightsSearches.empty), opens: added(insightsSearches.opens) },
        });
    if (searchers.length > 0) await countSearchers(tx, searchers, searcherKeys);
  });
  // Committed: remember what was written (another instance may hold larger ranks; max keeps them).
  for (const [page, week, register, rank] of registers.values()) {
    const key = `${page}\u0000${week}`;
    let ranks = written.get(key);
    if (!ranks) {
      if (written.size >= 2000) written.clear();
      written.set(key, (ranks = new Uint8Array(HLL_REGISTERS)));
    }
    if (ranks[register]! < rank) ranks[register] = rank;
  }
}

/** The stored form of a query's text in every row: `#` and its keyed hash (43 base64url characters). */
export function queryHash(textKey: Buffer, query: string): string {
  return `#${keyedHash(textKey, query).toString("base64url")}`;
}

/** Someone who searched a query on a day, as counted in memory (the id is hashed only if the query still needs counting). */
interface Searcher {
  query: string;
  /** queryHash of `query`: what the rows hold. */
  hash: string;
  day: string;
  userId: string;
}

/**
 * k-anonymity: a query's people are counted by keyed hash (under the quarter's key, prefixed with
 * the quarter, so people of two quarters are never added up) until K_ANONYMITY; then the hashes are
 * deleted, only `people = K_ANONYMITY` remains, and the query's text is written. Two instances
 * counting at once may each miss the other's uncommitted hash: the query then shows at the next
 * search, never too early.
 */
async function countSearchers(tx: Tx, searchers: readonly Searcher[], searcherKeys: ReadonlyMap<string, Buffer>): Promise<void> {
  const lastDay = new Map<string, string>();
  const textOf = new Map<string, string>();
  for (const { hash, query, day } of searchers) {
    textOf.set(hash, query);
    if ((lastDay.get(hash) ?? "") < day) lastDay.set(hash, day);
  }
  await tx
    .insert(insightsQueries)
    .select(
      selectJsonRows(
        [...lastDay].map(([hash, day]) => [hash, 0, day, null]),
        ["text", "integer", "text", "text"],
      ),
    )
    .onConflictDoUpdate({
      target: insightsQueries.query,
      set: { lastDay: larger(insightsQueries.lastDay) },
    });
  const rows = await tx
    .select({ query: insightsQueries.query })
    .from(insightsQueries)
    .where(and(inJsonList(insightsQueries.query, [...lastDay.keys()]), lt(insightsQueries.people, K_ANONYMITY)));
  const below = new Set(rows.map((row) => row.query));
  // Hashed only for the queries still below K_ANONYMITY: a query past it (most of a busy day's searches) needs
  // no one counted, and hashing its searchers anyway was most of a flush's time on the serving thread.
  const fresh = new Map<string, { query: string; person: string }>();
  for (const { hash, query, userId, day } of searchers) {
    if (!below.has(hash)) continue;
    const quarter = quarterOf(day);
    const person = `${quarter}:${keyedHash(searcherKeys.get(quarter)!, `${userId}\u0000${query}`).toString("base64url").slice(0, 22)}`;
    fresh.set(`${hash}\u0000${person}`, { query: hash, person });
  }
  if (fresh.size > 0)
    await tx
      .insert(insightsQueryPeople)
      .select(
        selectJsonRows(
          [...fresh.values()].map(({ query, person }) => [query, person]),
          ["text", "text"],
        ),
      )
      .onConflictDoNothing();
  for (const hash of below) {
    const quarter = quarterOf(lastDay.get(hash)!);
    const [row] = await tx
      .select({ people: sql<number>`count(*)`.mapWith(Number) })
      .from(insightsQueryPeople)
      .where(and(eq(insightsQueryPeople.query, hash), like(insightsQueryPeople.person, `${quarter}:%`)));
    const people = Math.min(row?.people ?? 0, K_ANONYMITY);
    // Never lowered: another instance may have reached the threshold (and deleted the hashes) meanwhile.
    await tx
      .update(insightsQueries)
      .set({
        people: sql`case when ${insightsQueries.people} > ${people} then ${insightsQueries.people} else ${people} end`,
        // The text, only now that K_ANONYMITY people searched it.
        ...(people >= K_ANONYMITY ? { text: textOf.get(hash)! } : {}),
      })
      .where(eq(insightsQueries.query, hash));
    if (people >= K_ANONYMITY) await tx.delete(insightsQueryPeople).where(eq(insightsQueryPeople.query, hash));
  }
}
