/**
 * The reading report's queries at size (20,000 people × 10 required pages, ~70 % confirmed, ANALYZE
 * done): every statement the list, its filters, its next page and a person's pending list send is
 * explained (EXPLAIN QUERY PLAN on SQLite, EXPLAIN on PostgreSQL); none may read the whole users or
 * reading_confirmations table or sort many rows. The totals (tallies) read every reader by design —
 * they are kept in memory — but still look confirmations up by key, never scan them.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { benchRequiredPages, insertReadingConfirmations } from "../../../scripts/bench/reading";
import { analyzeDatabase, insertScaleUsers } from "../../../scripts/bench/scale-data";
import { ROUTES, type Principal } from "../../../src/lib/routes";
import type { RequiredPage } from "../../../src/lib/reading/required-page";
import { closeDatabase, type Db } from "../../../src/lib/server/data/db";
import { audienceOf, loadAccessData } from "../../../src/lib/server/reading/audience";
import { personReading, readingReport } from "../../../src/lib/server/reading/report";
import { markTalliesStale, tallies } from "../../../src/lib/server/reading/tallies";
import { countTallies } from "../../../src/lib/server/reading/tally-count";
import { planOf, statementsOf, type Sent } from "../../support/query-plans";
import { openOwnTestDatabase } from "../../support/users";

const PEOPLE = 20_000;
const SORTED_ROWS_MAX = 2_000;
const ADMIN: Principal = { userId: "", email: "", name: "", roles: ["admin"], grantedPaths: new Set() };

/** Steps that read a whole users or reading_confirmations table, or sort many rows (the totals may read and group every reader, never scan confirmations). */
function fullReads(statement: Sent, plan: string[], allowUsersScan = false): string[] {
  const limited = /\blimit\b/i.test(statement.sql);
  // A name search sorts only the people the search index found (SQLite's trigram table).
  const searched = plan.some((step) => /SCAN users_search VIRTUAL TABLE/.test(step));
  return plan.filter(
    (step) =>
      /^\s*SCAN reading_confirmations\b/.test(step) ||
      /Seq Scan on reading_confirmations\b/.test(step) ||
      (!allowUsersScan && /^\s*SCAN users\b(?! USING (COVERING )?INDEX)/.test(step)) ||
      (!allowUsersScan && !limited && /^\s*SCAN users USING INDEX/.test(step)) ||
      (!allowUsersScan && /Seq Scan on users\b/.test(step)) ||
      (!allowUsersScan && !searched && /USE TEMP B-TREE FOR ORDER BY/.test(step)) ||
      (!allowUsersScan && Number(/\bSort\s+\(cost=[\d.]+ rows=(\d+)/.exec(step)?.[1] ?? 0) > SORTED_ROWS_MAX),
  );
}

async function offendingPlans(db: Db, work: () => Promise<unknown>, allowUsersScan = false): Promise<string[]> {
  const statements = await statementsOf(db, work);
  expect(statements.length).toBeGreaterThan(0);
  const offending: string[] = [];
  for (const statement of statements.filter((s) => /^\s*select/i.test(s.sql))) {
    const plan = await planOf(db, statement);
    if (fullReads(statement, plan, allowUsersScan).length) offending.push(`${statement.sql}\n  ${plan.join("\n  ")}`);
  }
  return offending;
}

describe("reading report query plans at size", () => {
  let db: Db;
  let dir: string;
  let pages: RequiredPage[];
  let someone: string;
  let cursor: string;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "b1-reading-plans-"));
    // Ten required pages the route table knows (the bench's own pages join it only through its dist copy).
    const known = ROUTES.filter((route) => route.reading).map((route) => route.path);
    pages = benchRequiredPages(10).map((page, index) => ({ ...page, path: index < 2 ? page.path : known[index]! }));
    fs.writeFileSync(path.join(dir, "reading.json"), JSON.stringify({ buildId: "planos", pages }));
    process.env.B1_DIST_DIR = dir;
    // On SQLite the totals are counted by a worker thread that opens DATABASE_PATH itself.
    process.env.DATABASE_PATH = path.join(dir, "db.sqlite");
    ({ db } = await openOwnTestDatabase(path.join(dir, "db.sqlite")));
    const ids = await insertScaleUsers(db, PEOPLE);
    someone = ids[4242]!;
    await insertReadingConfirmations(db, ids, pages, Date.now());
    await analyzeDatabase(db);
    // Counted once here (however long a loaded machine takes), so the list's requests below are
    // answered from memory like a warm server's.
    await tallies(
      db,
      pages.map((page) => ({ page, version: page.version })),
      Date.now(),
      120_000,
    );
    const report = await readingReport(db, ADMIN, {}, "UTC");
    if (!report.ok || !report.report.proximo) throw new Error("relatório vazio");
    cursor = report.report.proximo;
    await readingReport(db, ADMIN, { pagina: "/sobre-b1", versao: 1 }, "UTC");
  }, 180_000);
  afterAll(async () => {
    await closeDatabase(db);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const scenarios: Record<string, (db: Db) => Promise<unknown>> = {
    "primeira página": (db) => readingReport(db, ADMIN, {}, "UTC"),
    "filtrada: página, perfil e pendentes": (db) =>
      readingReport(db, ADMIN, { pagina: "/sobre-b1", perfil: "visualizador", situacao: "pendente" }, "UTC"),
    "filtrada: confirmadas de uma versão antiga": (db) =>
      readingReport(db, ADMIN, { pagina: "/sobre-b1", versao: 1, situacao: "confirmada" }, "UTC"),
    "busca por nome": (db) => readingReport(db, ADMIN, { busca: "pessoa 12345" }, "UTC"),
  };
  for (const [name, scenario] of Object.entries(scenarios)) {
    it(`${name}: no full read of users or reading_confirmations, no big sort`, async () => {
      const offending = await offendingPlans(db, () => scenario(db));
      expect(offending, offending.join("\n\n")).toEqual([]);
    });
  }

  it("página seguinte (keyset) and a person's pending list: index reads only", async () => {
    const offending = [
      ...(await offendingPlans(db, () => readingReport(db, ADMIN, { apos: cursor }, "UTC"))),
      ...(await offendingPlans(db, () => personReading(db, ADMIN, someone))),
    ];
    expect(offending, offending.join("\n\n")).toEqual([]);
  });

  it("the totals: four grouped statements per audience, however many pages share it", async () => {
    const access = await loadAccessData(db);
    const audiences = new Set(pages.map((page) => JSON.stringify(audienceOf(page, access))));
    expect(audiences.size).toBeLessThan(pages.length);
    const statements = (await statementsOf(db, () => countTallies(db, pages, access))).filter((s) => /^\s*select/i.test(s.sql));
    expect(statements).toHaveLength(4 * audiences.size);
  });

  it("answers 'come back' while totals never counted take longer than the wait, then has them", async () => {
    const older = { page: pages[3]!, version: 1 };
    expect(pages[3]!.version).toBe(2);
    // A process that never counted (the counts live on globalThis, shared by the gate's and Astro's bundles).
    const shared = globalThis as Record<symbol, { worker?: { terminate(): Promise<number> } } | undefined>;
    await shared[Symbol.for("b1.reading.tallies")]?.worker?.terminate();
    delete shared[Symbol.for("b1.reading.tallies")];
    expect(await tallies(db, [older], Date.now(), 0)).toBeNull();
    const counted = await tallies(db, [older], Date.now(), 30_000);
    expect(counted).toEqual([expect.objectContaining({ pagina: pages[3]!.path, versao: 1, versaoAtual: 2, publico: PEOPLE })]);
  });

  it("after a confirmation, counts again only once the last count rested twice its own duration", async () => {
    const wanted = [{ page: pages[0]!, version: pages[0]!.version }];
    expect(await tallies(db, wanted, Date.now(), 30_000)).not.toBeNull();
    const shared = (globalThis as Record<symbol, unknown>)[Symbol.for("b1.reading.tallies")] as {
      counting?: Promise<unknown>;
      counts: { countedAt: number };
      lastEndedAt: number;
      lastTookMs: number;
    };
    await shared.counting;
    const before = shared.counts.countedAt;
    expect(shared.lastTookMs).toBeGreaterThan(0);
    markTalliesStale();
    await tallies(db, wanted, shared.lastEndedAt + shared.lastTookMs);
    expect(shared.counting).toBeUndefined();
    await tallies(db, wanted, shared.lastEndedAt + 2 * shared.lastTookMs);
    expect(shared.counting).toBeDefined();
    await shared.counting;
    expect(shared.counts.countedAt).toBeGreaterThan(before);
  });
});
