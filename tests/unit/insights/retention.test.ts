/** Insights retention: only what is older than the period goes (in batches), and ended weeks' keys. */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  insightsComments,
  insightsKeys,
  insightsQueries,
  insightsQueryPeople,
  insightsReaders,
  insightsReads,
  insightsSearches,
  insightsVotes,
} from "../../../db/schema/index";
import { closeDatabase, type Db } from "../../../src/lib/server/data/db";
import { pruneInsights } from "../../../src/lib/server/insights/retention";
import { openOwnTestDatabase } from "../../support/users";

const NOW = Date.parse("2026-11-27T15:00:00Z");
const TZ = "America/Sao_Paulo";
let dir: string;
let db: Db;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "b1-insights-retention-"));
  db = (await openOwnTestDatabase(path.join(dir, "db.sqlite"))).db;
});
afterAll(async () => {
  await closeDatabase(db);
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("insights retention", () => {
  it("deletes only rows older than the period, in batches, and the keys of ended weeks", async () => {
    // 10 days kept: a day exactly 10 days before today (2026-11-17) stays, older ones go.
    const days = ["2026-11-01", "2026-11-16", "2026-11-17", "2026-11-18", "2026-11-27"];
    await db.insert(insightsReads).values(days.flatMap((day) => ["*", "lider"].map((role) => ({ page: "/faq", day, role, reads: 1 }))));
    await db.insert(insightsReaders).values([
      { page: "/faq", week: "2026-W44", register: 1, rank: 1 },
      { page: "/faq", week: "2026-W44", register: 2, rank: 1 },
      { page: "/faq", week: "2026-W47", register: 1, rank: 1 },
    ]);
    await db.insert(insightsSearches).values(days.map((day) => ({ query: `q ${day}`, day, searches: 1, empty: 0, opens: 0 })));
    await db.insert(insightsQueries).values([
      { query: "velha", people: 1, lastDay: "2026-11-02" },
      { query: "nova", people: 1, lastDay: "2026-11-20" },
    ]);
    await db.insert(insightsQueryPeople).values([
      { query: "velha", person: "2026-T4:h1" },
      { query: "nova", person: "2026-T4:h2" },
      // Hashed under last quarter's searchers' key: gone with the quarter (issue 62).
      { query: "nova", person: "2026-T3:h3" },
    ]);
    await db
      .insert(insightsVotes)
      .values(days.map((day, index) => ({ voteKey: `k${index}`, page: "/faq", version: "v1", helpful: 1, day })));
    await db
      .insert(insightsComments)
      .values(days.map((day, index) => ({ id: `c${index}`, page: "/faq", version: "v1", helpful: 0, body: "x", day })));
    await db.insert(insightsKeys).values([
      { name: "semana:2026-W46", secret: "aa" },
      { name: "semana:2026-W47", secret: "bb" },
      { name: "semana:2026-W48", secret: "cc" },
      { name: "voto:2026-T4", secret: "dd" },
      { name: "voto:2026-T3", secret: "ee" },
      { name: "consulta:2026-T4", secret: "ff" },
      { name: "consulta:2026-T3", secret: "11" },
      { name: "consulta-texto", secret: "22" },
    ]);

    const pruned = await pruneInsights(db, 10, TZ, NOW, 2);
    // The week before last, and the last quarter's vote and searcher salts.
    expect(pruned.keys).toBe(3);
    expect((await db.select().from(insightsReads)).map((row) => row.day).sort()).toEqual([
      "2026-11-17",
      "2026-11-17",
      "2026-11-18",
      "2026-11-18",
      "2026-11-27",
      "2026-11-27",
    ]);
    expect((await db.select().from(insightsReaders)).map((row) => row.week)).toEqual(["2026-W47"]);
    expect((await db.select().from(insightsSearches)).map((row) => row.day).sort()).toEqual(["2026-11-17", "2026-11-18", "2026-11-27"]);
    expect((await db.select().from(insightsVotes)).map((row) => row.day).sort()).toEqual(["2026-11-17", "2026-11-18", "2026-11-27"]);
    expect((await db.select().from(insightsComments)).map((row) => row.day).sort()).toEqual(["2026-11-17", "2026-11-18", "2026-11-27"]);
    expect((await db.select().from(insightsQueries)).map((row) => row.query)).toEqual(["nova"]);
    expect((await db.select().from(insightsQueryPeople)).map((row) => row.query)).toEqual(["nova"]);
    expect((await db.select().from(insightsKeys)).map((row) => row.name).sort()).toEqual([
      "consulta-texto",
      "consulta:2026-T4",
      "semana:2026-W47",
      "semana:2026-W48",
      "voto:2026-T4",
    ]);
    expect((await db.select().from(insightsQueryPeople)).map((row) => row.person)).toEqual(["2026-T4:h2"]);
    expect(pruned.rows).toBe(4 + 2 + 2 + 2 + 2 + 1 + 1 + 1);
    // A second pass finds nothing more.
    expect(await pruneInsights(db, 10, TZ, NOW, 2)).toEqual({ rows: 0, keys: 0 });
  });
});
