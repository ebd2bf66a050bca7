/**
 * The readers' sketch hashes each person and each page once per week key, not once per read (a SHA-256
 * was the largest part of counting a read), and forgets those hashes with the key.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { closeDatabase, type Db } from "../../../src/lib/server/data/db";
import { forgetInsightsKey, insightsKey, keyedHash, keyedWords, weekKeyName } from "../../../src/lib/server/insights/keys";
import { PAGE_PREFIX, PERSON_PREFIX, readerRegister } from "../../../src/lib/server/insights/hll";
import { openOwnTestDatabase } from "../../support/users";

const hashes = vi.hoisted(() => ({ count: 0 }));
vi.mock("node:crypto", async (original) => {
  const crypto = await original<typeof import("node:crypto")>();
  return {
    ...crypto,
    hash: (...args: Parameters<typeof crypto.hash>) => {
      hashes.count += 1;
      return crypto.hash(...args);
    },
  };
});

let dir: string;
let db: Db;
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "b1-reader-hashes-"));
  db = (await openOwnTestDatabase(path.join(dir, "db.sqlite"))).db;
});
afterAll(async () => {
  await closeDatabase(db);
  fs.rmSync(dir, { recursive: true, force: true });
});

const PAGES = ["/faq", "/glossario", "/5ps", "/templates", "/contato"];
const PEOPLE = ["ana", "bruno", "carla"];

/** Every person reads every page; returns the register updates and how many hashes they took. */
function readAll(key: Buffer) {
  const before = hashes.count;
  const updates = PEOPLE.flatMap((person) => PAGES.map((page) => readerRegister(key, person, page)));
  return { updates, hashes: hashes.count - before };
}

describe("readers' sketch hashes", () => {
  it("takes the words from the first 64 bits of the keyed SHA-256, as the sketches already stored were written", () => {
    const key = Buffer.alloc(32, 7);
    forgetInsightsKey(db);
    for (const [prefix, text] of [
      [PERSON_PREFIX, "ana"],
      [PAGE_PREFIX, "/faq"],
      [PERSON_PREFIX, "ação 🙂 \u0000 x"],
    ] as const) {
      const digest = keyedHash(key, prefix + text);
      expect(keyedWords(key, prefix, text)).toEqual([digest.readUInt32BE(0), digest.readUInt32BE(4)]);
    }
  });

  it("hashes each person and each page once per week key, and again only after the key is forgotten", async () => {
    const name = weekKeyName("2026-W49");
    const key = await insightsKey(db, name);
    const first = readAll(key);
    expect(first.hashes).toBe(PEOPLE.length + PAGES.length);
    const again = readAll(key);
    expect(again.hashes).toBe(0);
    expect(again.updates).toEqual(first.updates);
    forgetInsightsKey(db, name);
    const afterForget = readAll(key);
    expect(afterForget.hashes).toBe(PEOPLE.length + PAGES.length);
    expect(afterForget.updates).toEqual(first.updates);
  });

  it("keeps the hashes of two keys (a week and the one before, around Monday 00:00) without recomputing", async () => {
    const week = await insightsKey(db, weekKeyName("2026-W50"));
    const before = await insightsKey(db, weekKeyName("2026-W51"));
    readAll(week);
    readAll(before);
    expect(readAll(week).hashes).toBe(0);
    expect(readAll(before).hashes).toBe(0);
    // A third key pushes out the oldest used.
    readAll(Buffer.alloc(32, 9));
    expect(readAll(before).hashes).toBe(0);
    expect(readAll(week).hashes).toBe(PEOPLE.length + PAGES.length);
  });

  it("gives the same person other registers on other pages and under other keys", () => {
    const key = Buffer.alloc(32, 3);
    const registers = PAGES.map((page) => readerRegister(key, "ana", page).register);
    expect(new Set(registers).size).toBeGreaterThan(1);
    const underOther = PAGES.map((page) => readerRegister(Buffer.alloc(32, 4), "ana", page).register);
    expect(underOther).not.toEqual(registers);
  });
});
