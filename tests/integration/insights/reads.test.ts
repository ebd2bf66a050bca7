/**
 * Insights reads over HTTP against the built server: what counts as a read (signed in, GET, a person's
 * browser, once per page within the reload window), per day and role, summed in memory and written at
 * the flush; distinct readers per week from the sketch; INSIGHTS=false counts nothing. On PostgreSQL,
 * two instances on one database add up exactly.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insightsReaders, insightsReads } from "../../../db/schema/index";
import { closeDatabase, type Db } from "../../../src/lib/server/data/db";
import { dayOf } from "../../../src/lib/server/insights/calendar";
import { estimateDistinct, readerRegister } from "../../../src/lib/server/insights/hll";
import { insightsKey, weekKeyName } from "../../../src/lib/server/insights/keys";
import { freshDatabaseUrl, onPostgres } from "../../support/pg";
import { startBuiltServer, type RunningServer } from "../../support/server";
import { createTestUser, openTestDatabase, type TestUser } from "../../support/users";

const BROWSER = "Mozilla/5.0 (X11; Linux x86_64) Teste/1.0";

function open(server: RunningServer, user: TestUser | null, page: string, headers: Record<string, string> = {}, method = "GET") {
  return fetch(server.url + page, {
    method,
    redirect: "manual",
    headers: { "user-agent": BROWSER, ...(user ? { cookie: `b1_session=${user.token}` } : {}), ...headers },
  });
}

/** Ends the server with SIGTERM (its last flush runs) and waits for it. */
async function terminate(server: RunningServer) {
  process.kill(server.pid, "SIGTERM");
  await server.exited;
}

async function readsOf(db: Db, page: string): Promise<Record<string, number>> {
  const rows = await db.select().from(insightsReads).where(eq(insightsReads.page, page));
  const sums: Record<string, number> = Object.create(null);
  for (const row of rows) sums[row.role] = (sums[row.role] ?? 0) + row.reads;
  return sums;
}

/**
 * The distinct-readers estimate (HyperLogLog, linear counting at this size): within two readers of the head
 * count, as hll.ts documents. Two of a dozen readers share one of the 1,024 registers ~6 % of the time (the
 * key is random per database); the estimate then says 11, which CI saw against an exact `toBe(12)`.
 */
function expectAbout(estimate: number, readers: number) {
  expect(Math.abs(estimate - readers), `${estimate} para ${readers} leitores`).toBeLessThanOrEqual(2);
}

/**
 * The sketch's stored registers of `page` are the ones its week's key gives for exactly `readers` (if the
 * week ended during the test, each week's registers are ones its key gives for some of them).
 */
async function expectRegisters(db: Db, page: string, readers: TestUser[]) {
  const rows = await db.select().from(insightsReaders).where(eq(insightsReaders.page, page));
  const weeks = [...new Set(rows.map((row) => row.week))];
  for (const week of weeks) {
    const key = await insightsKey(db, weekKeyName(week));
    const updates = readers.map((reader) => readerRegister(key, reader.id, page));
    const stored = new Map(rows.filter((row) => row.week === week).map((row) => [row.register, row.rank]));
    if (weeks.length > 1) {
      for (const [register, rank] of stored) expect(updates).toContainEqual({ register, rank });
      continue;
    }
    const expected = new Map<number, number>();
    for (const { register, rank } of updates) expected.set(register, Math.max(expected.get(register) ?? 0, rank));
    expect(stored).toEqual(expected);
  }
  expect(weeks.length).toBeGreaterThan(0);
}

async function distinctOf(db: Db, page: string): Promise<number> {
  const rows = await db.select().from(insightsReaders).where(eq(insightsReaders.page, page));
  return estimateDistinct(rows.map((row) => row.rank));
}

describe("reads on one instance", () => {
  let server: RunningServer;
  const who: Record<string, TestUser> = {};

  beforeAll(async () => {
    server = await startBuiltServer();
    who.viewer = await createTestUser(server.db, ["visualizador"]);
    who.leader = await createTestUser(server.db, ["lider", "admin"]);
    who.none = await createTestUser(server.db, []);
  });
  afterAll(async () => server?.stop());

  it("counts a page served to a signed-in person once per reload window, per role, and nothing else", async () => {
    // The reads' day (São Paulo, the server's default) as it may be at the first read and after the last one.
    const dayAtStart = dayOf(Date.now(), "America/Sao_Paulo");
    expect((await open(server, who.viewer!, "/faq")).status).toBe(200);
    // Own reload within the window, a prefetch, a HEAD, a revalidation, a program: not reads.
    expect((await open(server, who.viewer!, "/faq")).status).toBe(200);
    expect((await open(server, who.leader!, "/faq", { "sec-purpose": "prefetch" })).status).toBe(200);
    expect((await open(server, who.leader!, "/faq", { purpose: "prefetch" })).status).toBe(200);
    expect((await open(server, who.leader!, "/faq", {}, "HEAD")).status).toBe(200);
    expect((await open(server, who.leader!, "/faq", { "if-none-match": '"x"' })).status).toBe(200);
    expect((await open(server, who.leader!, "/faq", { "user-agent": "Googlebot/2.1" })).status).toBe(200);
    expect((await open(server, who.leader!, "/faq", { "user-agent": "" })).status).toBe(200);
    // Signed out: a redirect to sign in, never a read.
    expect((await open(server, null, "/faq")).status).toBe(302);
    // Then real reads by two more people.
    expect((await open(server, who.leader!, "/faq")).status).toBe(200);
    expect((await open(server, who.none!, "/faq")).status).toBe(200);
    expect((await open(server, who.viewer!, "/glossario")).status).toBe(200);
    await terminate(server);
    expect(await readsOf(server.db, "/faq")).toEqual({ "*": 3, visualizador: 1, lider: 1, admin: 1, "sem-perfil": 1 });
    expect(await readsOf(server.db, "/glossario")).toEqual({ "*": 1, visualizador: 1 });
    expectAbout(await distinctOf(server.db, "/faq"), 3);
    await expectRegisters(server.db, "/faq", [who.viewer!, who.leader!, who.none!]);
    // One row per page, day and role: no row names a person (the reads' day, or the next if midnight passed meanwhile).
    const rows = await server.db.select().from(insightsReads);
    const days = new Set([dayAtStart, dayOf(Date.now(), "America/Sao_Paulo")]);
    expect(rows.every((row) => days.has(row.day))).toBe(true);
    expect(JSON.stringify(rows)).not.toContain(who.viewer!.id);
  });
});

describe("a burst of reads at once", () => {
  it("counts the same page opened 50 times in parallel by one person once, and by 50 people 50 times", async () => {
    const server = await startBuiltServer();
    try {
      const one = await createTestUser(server.db, ["visualizador"]);
      const many = await Promise.all(Array.from({ length: 50 }, () => createTestUser(server.db, ["visualizador"])));
      const once = await Promise.all(Array.from({ length: 50 }, () => open(server, one, "/5ps")));
      const each = await Promise.all(many.map((user) => open(server, user, "/templates")));
      expect([...once, ...each].map((response) => response.status)).toEqual(Array(100).fill(200));
      await terminate(server);
      expect(await readsOf(server.db, "/5ps")).toEqual({ "*": 1, visualizador: 1 });
      expect(await readsOf(server.db, "/templates")).toEqual({ "*": 50, visualizador: 50 });
      await expectRegisters(server.db, "/templates", many);
    } finally {
      await server.stop();
    }
  });
});

describe("INSIGHTS=false", () => {
  it("counts nothing", async () => {
    const server = await startBuiltServer({ INSIGHTS: "false" });
    try {
      const viewer = await createTestUser(server.db, ["visualizador"]);
      expect((await open(server, viewer, "/faq")).status).toBe(200);
      await terminate(server);
      expect(await server.db.select().from(insightsReads)).toEqual([]);
      expect(await server.db.select().from(insightsReaders)).toEqual([]);
    } finally {
      await server.stop();
    }
  });
});

describe.skipIf(!onPostgres)("reads on two instances (PostgreSQL)", () => {
  let db: Db;
  let servers: RunningServer[] = [];
  const people: TestUser[] = [];

  beforeAll(async () => {
    const url = (await freshDatabaseUrl())!;
    db = await openTestDatabase(url);
    for (let index = 0; index < 12; index++)
      people.push(await createTestUser(db, [index % 3 === 0 ? "lider" : "visualizador"], `leitor-${index}`));
    const folders = [0, 1].map(() => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "b1-insights-"));
      fs.writeFileSync(path.join(dir, "database-url"), url);
      return dir;
    });
    servers = await Promise.all(folders.map((dataDir) => startBuiltServer({}, { dataDir })));
  }, 60_000);
  afterAll(async () => {
    for (const server of servers) await server.stop();
    if (db) await closeDatabase(db);
  });

  it("sums exactly what both counted, in parallel, and unions their readers", async () => {
    const [a, b] = servers as [RunningServer, RunningServer];
    // Every person reads /faq on A; the first 8 also on B (another instance: its own window); all at once.
    const answers = await Promise.all([
      ...people.map((person) => open(a, person, "/faq")),
      ...people.slice(0, 8).map((person) => open(b, person, "/faq")),
      ...people.slice(0, 5).map((person) => open(b, person, "/5ps")),
    ]);
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
    // A flushes on its timer while B is still running; then both stop (their last flush).
    await expect.poll(async () => (await readsOf(db, "/faq"))["*"] ?? 0, { timeout: 15_000, interval: 200 }).toBeGreaterThanOrEqual(12);
    await Promise.all(servers.map(terminate));
    expect(await readsOf(db, "/faq")).toEqual({ "*": 20, lider: 4 + 3, visualizador: 8 + 5 });
    expect(await readsOf(db, "/5ps")).toEqual({ "*": 5, lider: 2, visualizador: 3 });
    expectAbout(await distinctOf(db, "/faq"), 12);
    expectAbout(await distinctOf(db, "/5ps"), 5);
    await expectRegisters(db, "/faq", people);
    await expectRegisters(db, "/5ps", people.slice(0, 5));
  });
});
