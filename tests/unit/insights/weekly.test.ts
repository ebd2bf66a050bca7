/**
 * Insights' pre-summed tables (migration 0023): the weekly reads, the readers sketches' summaries and
 * the weekly votes stay equal to the rows they sum through two instances flushing at once, vote
 * changes and retention cutting a week in two; and the report read from them equals the sums of the
 * day rows for every period, role and weekday.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  insightsReaders,
  insightsReaderWeeks,
  insightsReads,
  insightsReadsWeekly,
  insightsVotes,
  insightsVotesWeekly,
} from "../../../db/schema/index";
import { closeDatabase, type Db } from "../../../src/lib/server/data/db";
import { cutPeriod, dayOf, daysBefore, weekNumberOf } from "../../../src/lib/server/insights/calendar";
import { emptyPending } from "../../../src/lib/server/insights/collector";
import { estimateDistinct, harmonicShare } from "../../../src/lib/server/insights/hll";
import { insightsReport } from "../../../src/lib/server/insights/report";
import { pruneInsights } from "../../../src/lib/server/insights/retention";
import { flushInsights } from "../../../src/lib/server/insights/store";
import { isoWeekOf } from "../../../src/lib/server/reading/digest-week";
import type { Principal } from "../../../src/lib/routes";
import { PERIODS } from "../../../src/lib/insights/labels";
import { openOwnTestDatabase } from "../../support/users";

const TZ = "America/Sao_Paulo";
const PAGES = ["/faq", "/glossario", "/5ps"];
const ADMIN: Principal = { userId: "admin", email: "admin@b1.example.com", name: "Admin", roles: ["admin"], grantedPaths: new Set() };
let dir: string;
let db: Db;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "b1-insights-weekly-"));
  db = (await openOwnTestDatabase(path.join(dir, "db.sqlite"))).db;
});
afterAll(async () => {
  await closeDatabase(db);
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Deterministic pseudo-random numbers. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1_664_525 + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

/** What one instance counted: reads on `days` and readers of the weeks of those days. */
function instanceBatch(seed: number, days: string[]) {
  const next = random(seed);
  const batch = emptyPending();
  for (const page of PAGES)
    for (const day of days) {
      if (next() < 0.3) continue;
      for (const role of ["*", "lider", "visualizador"]) batch.reads.set(`${page}\u0000${day}\u0000${role}`, 1 + Math.floor(next() * 50));
      const week = isoWeekOf(Date.parse(`${day}T15:00:00Z`), TZ);
      const readers = batch.readers.get(`${page}\u0000${week}`) ?? new Set<string>();
      for (let person = 0; person < 40; person++) if (next() < 0.5) readers.add(`pessoa-${Math.floor(next() * 3000)}`);
      batch.readers.set(`${page}\u0000${week}`, readers);
    }
  return batch;
}

/** Fails unless every pre-summed row equals the sum of the rows it stands for (and none is missing or extra). */
async function expectSummariesExact() {
  const weekly = new Map<string, number>();
  for (const row of await db.select().from(insightsReads)) {
    const key = `${row.page} ${weekNumberOf(row.day)} ${row.role}`;
    weekly.set(key, (weekly.get(key) ?? 0) + row.reads);
  }
  const storedWeekly = new Map(
    (await db.select().from(insightsReadsWeekly)).map((row) => [`${row.page} ${row.week} ${row.role}`, row.reads]),
  );
  expect(Object.fromEntries(storedWeekly)).toEqual(Object.fromEntries(weekly));

  const sketches = new Map<string, { filled: number; harmonic: bigint }>();
  for (const row of await db.select().from(insightsReaders)) {
    const key = `${row.page} ${row.week}`;
    const known = sketches.get(key) ?? { filled: 0, harmonic: 0n };
    known.filled += 1;
    known.harmonic += harmonicShare(row.rank);
    sketches.set(key, known);
  }
  const storedSketches = (await db.select().from(insightsReaderWeeks)).map((row) => [
    `${row.page} ${row.week}`,
    { filled: Number(row.filled), harmonic: BigInt(row.harmonic) },
  ]);
  // Read as numbers the sums round past 2^53: compare as the report reads them.
  const asRead = (entries: [string, { filled: number; harmonic: bigint }][]) =>
    Object.fromEntries(entries.map(([key, value]) => [key, { filled: value.filled, harmonic: Number(value.harmonic) }]));
  expect(asRead(storedSketches as [string, { filled: number; harmonic: bigint }][])).toEqual(asRead([...sketches]));

  const votes = new Map<string, number>();
  for (const row of await db.select().from(insightsVotes)) {
    const key = `${row.page} ${weekNumberOf(row.day)} ${row.helpful}`;
    votes.set(key, (votes.get(key) ?? 0) + 1);
  }
  const storedVotes = new Map(
    (await db.select().from(insightsVotesWeekly)).map((row) => [`${row.page} ${row.week} ${row.helpful}`, row.votes]),
  );
  expect(Object.fromEntries(storedVotes)).toEqual(Object.fromEntries(votes));
}

/** The report's numbers computed the slow way, from the day rows, registers and votes themselves. */
async function expectReportEqualsDayRows(now: number) {
  const reads = await db.select().from(insightsReads);
  const registers = await db.select().from(insightsReaders);
  const votes = await db.select().from(insightsVotes);
  const today = dayOf(now, TZ);
  const lastWeek = isoWeekOf(now - 7 * 86_400_000, TZ);
  for (const periodo of PERIODS)
    for (const perfil of ["*", "lider"] as const) {
      const since = daysBefore(today, Number(periodo) - 1);
      const result = await insightsReport(db, ADMIN, { periodo, perfil, pagina: "/faq" }, TZ, now);
      if (!result.ok) throw new Error(result.error);
      const { report } = result;
      for (const page of PAGES) {
        const row = report.paginas.find((candidate) => candidate.pagina === page)!;
        const expected = reads.filter((r) => r.page === page && r.role === perfil && r.day >= since).reduce((sum, r) => sum + r.reads, 0);
        expect({ periodo, perfil, page, reads: row.leituras }).toEqual({ periodo, perfil, page, reads: expected });
        const sketch = registers.filter((r) => r.page === page && r.week === lastWeek).map((r) => r.rank);
        expect(row.leitoresSemana).toBe(estimateDistinct(sketch));
        const pageVotes = votes.filter((vote) => vote.page === page && vote.day >= since);
        expect([row.sim, row.nao]).toEqual([
          pageVotes.filter((v) => v.helpful === 1).length,
          pageVotes.filter((v) => v.helpful === 0).length,
        ]);
      }
      const byRole = new Map<string, number>();
      for (const r of reads)
        if (r.page === "/faq" && r.role !== "*" && r.day >= since) byRole.set(r.role, (byRole.get(r.role) ?? 0) + r.reads);
      expect(Object.fromEntries(report.perfis.map((row) => [row.perfil, row.leituras]))).toEqual(Object.fromEntries(byRole));
      const sinceWeek = isoWeekOf(Date.parse(`${since}T12:00:00Z`), "UTC");
      const weeks = [...new Set(registers.filter((r) => r.page === "/faq" && r.week >= sinceWeek).map((r) => r.week))].sort();
      expect(report.leitores).toEqual(
        weeks.map((week) => ({
          semana: week,
          leitores: estimateDistinct(registers.filter((r) => r.page === "/faq" && r.week === week).map((r) => r.rank)),
        })),
      );
    }
}

describe("cutPeriod", () => {
  it("splits every period into whole weeks and loose days that cover it exactly once", () => {
    for (let start = 0; start < 14; start++)
      for (const length of [1, 6, 7, 8, 13, 14, 30, 365]) {
        const since = daysBefore("2026-11-30", -start);
        const until = daysBefore(since, -(length - 1));
        const cut = cutPeriod(since, until);
        const days: string[] = [];
        for (let offset = 0; offset < length; offset++) days.push(daysBefore(since, -offset));
        const inWeeks = (day: string) => cut.weeks !== null && weekNumberOf(day) >= cut.weeks.first && weekNumberOf(day) <= cut.weeks.last;
        const loose = (day: string) => day >= since && (cut.weeks === null || day < cut.weeks.firstDay || day > cut.weeks.lastDay);
        for (const day of days) expect(inWeeks(day) !== loose(day)).toBe(true);
        if (cut.weeks) {
          // Whole weeks only: Monday to Sunday, inside the period.
          expect(new Date(`${cut.weeks.firstDay}T12:00:00Z`).getUTCDay()).toBe(1);
          expect(new Date(`${cut.weeks.lastDay}T12:00:00Z`).getUTCDay()).toBe(0);
          expect(cut.weeks.firstDay >= since && cut.weeks.lastDay <= until).toBe(true);
          expect(weekNumberOf(cut.weeks.firstDay)).toBe(cut.weeks.first);
          expect(weekNumberOf(cut.weeks.lastDay)).toBe(cut.weeks.last);
        }
      }
  });
});

describe("insights weekly sums", () => {
  it("stay exact through two instances flushing at once, vote changes and retention cutting a week in two", async () => {
    const now = Date.parse("2026-11-27T15:00:00Z");
    const today = dayOf(now, TZ);
    const days = Array.from({ length: 400 }, (_, index) => daysBefore(today, index));
    // Two instances, the same days, pages and weeks: their deltas meet on the same rows.
    await Promise.all([flushInsights(db, instanceBatch(1, days)), flushInsights(db, instanceBatch(2, days))]);
    await flushInsights(db, instanceBatch(3, days.slice(0, 10)));
    const next = random(9);
    await db.insert(insightsVotes).values(
      Array.from({ length: 300 }, (_, index) => ({
        voteKey: `voto-${index}`,
        page: PAGES[index % PAGES.length]!,
        version: "v1",
        helpful: next() < 0.6 ? 1 : 0,
        reason: null,
        day: days[Math.floor(next() * days.length)]!,
      })),
    );
    await expectSummariesExact();
    // A vote changed (answer and day), another changed only in its reason, one deleted.
    await db.update(insightsVotes).set({ helpful: 0, day: today }).where(eq(insightsVotes.voteKey, "voto-1"));
    await db.update(insightsVotes).set({ reason: "confusa" }).where(eq(insightsVotes.voteKey, "voto-2"));
    await db.delete(insightsVotes).where(eq(insightsVotes.voteKey, "voto-3"));
    await expectSummariesExact();
    // Friday, Sunday and Monday: periods ending mid-week, on a week's last day and on its first.
    for (const later of [0, 2, 3]) await expectReportEqualsDayRows(now + later * 86_400_000);

    // 62 days kept: the cutoff (a Saturday) falls inside a week, whose weekly rows must lose exactly the days pruned.
    expect(new Date(`${daysBefore(today, 62)}T12:00:00Z`).getUTCDay()).toBe(6);
    const pruned = await pruneInsights(db, 62, TZ, now, 500);
    expect(pruned.rows).toBeGreaterThan(0);
    await expectSummariesExact();
    await expectReportEqualsDayRows(now);
  });
});
