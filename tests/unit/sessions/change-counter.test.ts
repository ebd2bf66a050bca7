/**
 * The change counter behind the gate's session cache: it must move on every commit that may touch a
 * session, user or role — by this connection, by another connection, by another process (the CLI),
 * across a WAL checkpoint and restart — and stay put when nothing was written (else the cache is no
 * cache). On SQLite it reads the WAL-index header from the `-shm` file; PostgreSQL reads its row.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { insightsReads, users } from "../../../db/schema/index";
import { changeCounter, readAfterDelay, sharedChangeCounter } from "../../../src/lib/server/data/change-counter";
import { closeDatabase, connectDatabase, sqliteClient, type Db } from "../../../src/lib/server/data/db";
import { createSession, invalidateUserSessions } from "../../../src/lib/server/sessions/session";
import { createSessionValidator } from "../../../src/lib/server/sessions/cache";
import { onPostgres } from "../../support/pg";
import { createTestUser, openOwnTestDatabase } from "../../support/users";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "b1-change-counter-"));
let db: Db;
let other: Db;
let target: string;
beforeAll(async () => {
  ({ db, target } = await openOwnTestDatabase(path.join(dir, "db.sqlite")));
  other = connectDatabase(target);
});
afterAll(async () => {
  await closeDatabase(other);
  await closeDatabase(db);
  fs.rmSync(dir, { recursive: true, force: true });
});

const read = async (counter: () => number | Promise<number>) => await counter();

/** SQLite's counter, which must answer at once (the gate checks a cached session without a promise). */
function syncCounter(target: Db): () => number {
  const counter = changeCounter(target);
  return () => {
    const value = counter();
    if (typeof value !== "number") throw new Error("o contador do SQLite devia responder sem promise");
    return value;
  };
}

describe("the change counter (both engines)", () => {
  it("stays put while nothing is written and moves on a commit by this or another connection", async () => {
    const counter = changeCounter(db);
    const user = await createTestUser(db, ["visualizador"]);
    const start = await read(counter);
    expect(await read(counter)).toBe(start);
    await db.select().from(users).where(eq(users.id, user.id));
    expect(await read(counter)).toBe(start);
    await other.update(users).set({ fullName: "Outro Nome" }).where(eq(users.id, user.id));
    const afterOther = await read(counter);
    expect(afterOther).not.toBe(start);
    expect(await read(counter)).toBe(afterOther);
    await db.update(users).set({ fullName: "Mais Um Nome" }).where(eq(users.id, user.id));
    expect(await read(counter)).not.toBe(afterOther);
  });

  it("stays put on a commit to tables that cannot change a session (an Insights flush every 5 s)", async () => {
    const counter = changeCounter(db);
    const start = await read(counter);
    await other.insert(insightsReads).values({ page: "/contador", day: "2026-11-28", role: "*", reads: 1 });
    await db
      .update(insightsReads)
      .set({ reads: sql`reads + 1` })
      .where(eq(insightsReads.page, "/contador"));
    expect(await read(counter)).toBe(start);
  });

  it("a session ended by another connection is refused by the cached validator on the next call", async () => {
    const validate = createSessionValidator(db);
    const user = await createTestUser(db, ["visualizador"]);
    const { token } = await createSession(db, user.id);
    expect(await validate(token)).not.toBeNull();
    expect(await validate(token)).not.toBeNull();
    await invalidateUserSessions(other, user.id);
    expect(await validate(token)).toBeNull();
  });
});

describe("a read shared by requests nobody waits for (search beacons)", () => {
  it("calls within the delay of the first share one read, made only once the delay has passed", async () => {
    vi.useFakeTimers();
    try {
      const read = vi.fn(async () => 7);
      const shared = readAfterDelay(read, 20);
      const first = shared();
      await vi.advanceTimersByTimeAsync(19);
      const second = shared();
      expect(read).not.toHaveBeenCalled();
      await vi.advanceTimersByTimeAsync(1);
      expect(await first).toBe(7);
      expect(await second).toBe(7);
      expect(read).toHaveBeenCalledTimes(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it("a call made once the read is under way waits for a read of its own (the one under way may predate it)", async () => {
    vi.useFakeTimers();
    try {
      const answers = [Promise.withResolvers<number>(), Promise.withResolvers<number>()];
      const read = vi.fn(() => answers[read.mock.calls.length - 1]!.promise);
      const shared = readAfterDelay(read, 20);
      const before = shared();
      await vi.advanceTimersByTimeAsync(20);
      expect(read).toHaveBeenCalledTimes(1);
      const during = shared();
      answers[0]!.resolve(1);
      expect(await before).toBe(1);
      await vi.advanceTimersByTimeAsync(20);
      expect(read).toHaveBeenCalledTimes(2);
      answers[1]!.resolve(2);
      expect(await during).toBe(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it("a failed read fails every call that shared it, and the next call reads again", async () => {
    vi.useFakeTimers();
    try {
      let fail = true;
      const read = vi.fn(async () => {
        if (fail) throw new Error("banco fora do ar");
        return 3;
      });
      const shared = readAfterDelay(read, 20);
      const calls = [shared(), shared()].map((call) => call.then(String, (error: Error) => error.message));
      await vi.advanceTimersByTimeAsync(20);
      expect(await Promise.all(calls)).toEqual(["banco fora do ar", "banco fora do ar"]);
      fail = false;
      const again = shared();
      await vi.advanceTimersByTimeAsync(20);
      expect(await again).toBe(3);
      expect(read).toHaveBeenCalledTimes(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it("a session ended before a check arrived is refused though the check shares a read started for an earlier one", async () => {
    const validate = createSessionValidator(db);
    const user = await createTestUser(db, ["visualizador"]);
    const { token } = await createSession(db, user.id);
    expect(await validate(token, Date.now(), true)).not.toBeNull();
    // An earlier check opens the shared read's wait; the session ends; a later check joins that wait.
    const earlier = validate(token, Date.now(), true);
    await invalidateUserSessions(other, user.id);
    const later = validate(token, Date.now(), true);
    expect(await later).toBeNull();
    await earlier;
  });

  it.skipIf(onPostgres)("on SQLite the shared counter is the synchronous one (nothing to share)", () => {
    expect(typeof sharedChangeCounter(db, 20)()).toBe("number");
  });
});

describe.skipIf(onPostgres)("the change counter on SQLite's WAL index", () => {
  const sqlite = () => sqliteClient(db)!;

  it("follows commits, as the -shm header does: this connection's write counts once committed", () => {
    const counter = syncCounter(db);
    const raw = sqlite();
    // Prepared before BEGIN: db.ts refuses to prepare on a connection inside a transaction not its own.
    const touch = raw.prepare("update users set full_name = full_name");
    const before = counter();
    raw.exec("BEGIN IMMEDIATE");
    try {
      touch.run();
      // total_changes() would already have moved here; the WAL-index header moves at COMMIT.
      expect(counter()).toBe(before);
      raw.exec("COMMIT");
    } finally {
      if (raw.inTransaction) raw.exec("ROLLBACK");
    }
    expect(counter()).not.toBe(before);
    expect(fs.existsSync(`${target}-shm`)).toBe(true);
  });

  /** Frames in the WAL (the header's mxFrame), from a PASSIVE checkpoint, which leaves the header as it is. */
  const walFrames = () => (sqliteClient(other)!.pragma("wal_checkpoint(PASSIVE)") as { log: number }[])[0]!.log;

  for (const mode of ["PASSIVE", "TRUNCATE"] as const) {
    it(`moves on a commit that restarts the WAL after a ${mode} checkpoint, at the same frame count as before`, async () => {
      const validate = createSessionValidator(db);
      const counter = syncCounter(db);
      const user = await createTestUser(db, ["visualizador"]);
      const [first, second] = [await createSession(db, user.id), await createSession(db, user.id)];
      const raw = sqliteClient(other)!;
      const end = raw.prepare("delete from sessions where id = ?");
      // The same write before and after the checkpoint: a WAL that starts over reaches the same frame count.
      expect((raw.pragma(`wal_checkpoint(${mode})`) as { busy: number }[])[0]!.busy).toBe(0);
      end.run(first.token.split(".")[0]);
      const afterFirst = counter();
      const framesBefore = walFrames();
      expect(counter()).toBe(afterFirst);
      expect(await validate(second.token)).not.toBeNull();
      expect(counter()).toBe(afterFirst);
      const checkpoint = raw.pragma(`wal_checkpoint(${mode})`) as { busy: number; checkpointed: number; log: number }[];
      expect(checkpoint[0]).toMatchObject({ busy: 0 });
      // A checkpoint changes no row: PASSIVE leaves the header alone (TRUNCATE rewrites it, a harmless move).
      if (mode === "PASSIVE") expect(counter()).toBe(afterFirst);
      const afterCheckpoint = counter();
      end.run(second.token.split(".")[0]);
      expect(counter()).not.toBe(afterCheckpoint);
      expect(walFrames()).toBe(framesBefore);
      expect(await validate(second.token)).toBeNull();
    });
  }

  it("moves on a commit by another process (the CLI's own connection)", async () => {
    const validate = createSessionValidator(db);
    const user = await createTestUser(db, ["visualizador"]);
    const { token } = await createSession(db, user.id);
    expect(await validate(token)).not.toBeNull();
    const script = `const Database = require("better-sqlite3"); const db = new Database(process.argv[1]); db.pragma("busy_timeout = 5000"); db.prepare("delete from sessions where user_id = ?").run(process.argv[2]); db.close();`;
    const child = spawnSync(process.execPath, ["-e", script, target, user.id], { encoding: "utf8" });
    expect(child.stderr).toBe("");
    expect(child.status).toBe(0);
    expect(await validate(token)).toBeNull();
  });

  it("falls back to data_version and total_changes where there is no -shm file (an in-memory database)", async () => {
    const memory = connectDatabase(":memory:");
    try {
      const raw = sqliteClient(memory)!;
      raw.exec("create table t (x integer)");
      const counter = syncCounter(memory);
      const start = counter();
      expect(counter()).toBe(start);
      raw.prepare("insert into t values (1)").run();
      expect(counter()).not.toBe(start);
    } finally {
      await closeDatabase(memory);
    }
  });

  it("keeps one descriptor per -shm file however many counters read it", () => {
    const count = () => fs.readdirSync("/proc/self/fd").length;
    syncCounter(db);
    const before = count();
    for (let index = 0; index < 20; index++) syncCounter(db)();
    expect(count()).toBe(before);
  });

  it("a raw better-sqlite3 connection elsewhere sees its commits too (the header is the file's, not the connection's)", () => {
    const counter = syncCounter(db);
    const start = counter();
    const plain = new Database(target);
    try {
      plain.pragma("busy_timeout = 5000");
      plain.prepare("update users set full_name = full_name").run();
    } finally {
      plain.close();
    }
    expect(counter()).not.toBe(start);
  });
});

describe.skipIf(!onPostgres)("the change counter on PostgreSQL", () => {
  /** The counter slot a transaction bumps (the one it would wait on), as the trigger picks it. */
  const slotOf = async (tx: Parameters<Parameters<Db["transaction"]>[0]>[0]) =>
    Number((await tx.execute<{ slot: number }>(sql`select (1 + txid_current() % 32)::int as slot`)).rows[0]!.slot);

  it("two transactions writing users at once do not wait for each other's commit (a directory's sync), and the counter still moves", async () => {
    const counter = changeCounter(db);
    const before = await read(counter);
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let wrote!: (slot: number) => void;
    const written = new Promise<number>((resolve) => (wrote = resolve));
    const first = db.transaction(async (tx) => {
      await tx.insert(users).values({ id: crypto.randomUUID(), email: `contador-a-${Date.now()}@b1.example.com`, passwordHash: "x" });
      wrote(await slotOf(tx));
      await released;
    });
    const firstSlot = await written;
    try {
      await secondWriterDoesNotWait(firstSlot, counter, before);
    } finally {
      release();
      await first;
    }
    expect(await read(counter)).toBeGreaterThan(before);
  });

  async function secondWriterDoesNotWait(firstSlot: number, counter: () => number | Promise<number>, before: number) {
    // A second writer whose slot is another (the same slot, 1 in 32, is left for a next transaction: not a timing retry).
    let outcome = "same-slot";
    while (outcome === "same-slot") {
      outcome = await db
        .transaction(async (tx) => {
          if ((await slotOf(tx)) === firstSlot) {
            tx.rollback();
          }
          await tx.execute(sql`set local lock_timeout = '300ms'`);
          await tx.insert(users).values({ id: crypto.randomUUID(), email: `contador-b-${Date.now()}@b1.example.com`, passwordHash: "x" });
          return "ok";
        })
        .catch((error: { code?: string; cause?: { code?: string }; name?: string }) => {
          if (error.name === "TransactionRollbackError") return "same-slot";
          if ((error.cause?.code ?? error.code) === "55P03") return "blocked";
          throw error;
        });
    }
    expect(outcome).toBe("ok");
    // The second writer's commit is seen while the first is still open.
    expect(await read(counter)).toBeGreaterThan(before);
  }
});
