/**
 * holdIdentityLocks (PostgreSQL; SQLite runs writers one at a time): a claim of an identity waits
 * for another open claim of it and for a holder of the `accounts` lock, and holds that holder
 * back; claims of other identities do not wait. A waiter gives up after `lock_timeout`, so what
 * is blocked is seen without timing the test.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { closeDatabase, type Db } from "../../../src/lib/server/data/db";
import { holdIdentityLocks, holdLock } from "../../../src/lib/server/data/dialect";
import { onPostgres } from "../../support/pg";
import { openOwnTestDatabase } from "../../support/users";

describe.skipIf(!onPostgres)("identity locks on PostgreSQL", () => {
  let db: Db;
  let dir: string;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "b1-identity-locks-"));
    ({ db } = await openOwnTestDatabase(path.join(dir, "db.sqlite")));
  });
  afterAll(async () => {
    await closeDatabase(db);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** Runs `hold` in a transaction of its own connection and keeps it open until the returned `release`. */
  async function holding(hold: (tx: Parameters<Parameters<Db["transaction"]>[0]>[0]) => Promise<void>) {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let held!: () => void;
    const isHeld = new Promise<void>((resolve) => (held = resolve));
    const done = db.transaction(async (tx) => {
      await hold(tx);
      held();
      await released;
    });
    await isHeld;
    return async () => {
      release();
      await done;
    };
  }

  /** "ok" when `take` gets its locks, "blocked" when it waits past lock_timeout. */
  const attempt = (take: (tx: Parameters<Parameters<Db["transaction"]>[0]>[0]) => Promise<void>) =>
    db
      .transaction(async (tx) => {
        await tx.execute(sql`set local lock_timeout = '300ms'`);
        await take(tx);
        return "ok";
      })
      .catch((error: { code?: string; cause?: { code?: string } }) => {
        if ((error.cause?.code ?? error.code) === "55P03") return "blocked";
        throw error;
      });

  it("a claim blocks claims of the same address or external id and the accounts lock, not other people", async () => {
    const release = await holding((tx) => holdIdentityLocks(tx, ["email:ana@b1.example.com", "external:ana-1"]));
    expect(await attempt((tx) => holdIdentityLocks(tx, ["email:bia@b1.example.com", "external:bia-1"]))).toBe("ok");
    expect(await attempt((tx) => holdIdentityLocks(tx, ["email:ana@b1.example.com", "external:outra"]))).toBe("blocked");
    expect(await attempt((tx) => holdIdentityLocks(tx, ["email:outra@b1.example.com", "external:ana-1"]))).toBe("blocked");
    // The address and the external id are separate names: an external id spelled like the address is another identity.
    expect(await attempt((tx) => holdIdentityLocks(tx, ["external:ana@b1.example.com"]))).toBe("ok");
    expect(await attempt((tx) => holdLock(tx, "accounts"))).toBe("blocked");
    await release();
    expect(await attempt((tx) => holdIdentityLocks(tx, ["email:ana@b1.example.com", "external:ana-1"]))).toBe("ok");
  });

  it("a holder of the accounts lock (sign-up, corporate sign-in) holds every claim back", async () => {
    const release = await holding((tx) => holdLock(tx, "accounts"));
    expect(await attempt((tx) => holdIdentityLocks(tx, ["email:cai@b1.example.com"]))).toBe("blocked");
    await release();
    expect(await attempt((tx) => holdIdentityLocks(tx, ["email:cai@b1.example.com"]))).toBe("ok");
  });

  it("the same identities named in another order take the same locks (no circular wait)", async () => {
    const release = await holding((tx) => holdIdentityLocks(tx, ["external:dani-1", "email:dani@b1.example.com"]));
    expect(await attempt((tx) => holdIdentityLocks(tx, ["email:dani@b1.example.com", "external:dani-1"]))).toBe("blocked");
    await release();
  });
});
