/**
 * The idle collection (src/server/idle-memory.ts): once after activity that grew the memory and
 * `idleMs` without a request; never on health probes alone, never twice for one idle spell.
 */
import { describe, expect, it } from "vitest";
import { createIdleCollector, lastResortCollection } from "../../../src/server/idle-memory";

const MB = 1024 * 1024;

function setUp() {
  const state = { now: 0, resident: 100 * MB, collections: 0 };
  const collector = createIdleCollector({
    idleMs: 10_000,
    minGrowthBytes: 32 * MB,
    residentBytes: () => state.resident,
    collect: () => {
      state.collections++;
      state.resident = 110 * MB;
    },
    now: () => state.now,
  });
  return { state, collector };
}

describe("idle collection", () => {
  it("collects once after load and 10 s without requests, then waits for new growth", () => {
    const { state, collector } = setUp();
    collector.touch();
    state.resident = 250 * MB;
    state.now = 9_999;
    expect(collector.check()).toBe(false);
    state.now = 10_000;
    expect(collector.check()).toBe(true);
    expect(state.collections).toBe(1);
    // Still idle: nothing more to give back.
    state.now = 60_000;
    expect(collector.check()).toBe(false);
    // New activity that grew the memory by less than the floor since the collection (110 MB): left alone.
    collector.touch();
    state.resident = 130 * MB;
    state.now = 80_000;
    expect(collector.check()).toBe(false);
    state.resident = 150 * MB;
    expect(collector.check()).toBe(true);
    expect(state.collections).toBe(2);
  });

  it("does not collect while requests keep coming, nor without any activity", () => {
    const { state, collector } = setUp();
    state.resident = 300 * MB;
    state.now = 60_000;
    // Only health probes (not touched) for a minute.
    expect(collector.check()).toBe(false);
    for (let at = 60_000; at < 120_000; at += 5_000) {
      state.now = at;
      collector.touch();
      expect(collector.check()).toBe(false);
    }
    expect(state.collections).toBe(0);
  });

  it("runs V8's last-resort collection without leaving `gc` on the global object", () => {
    const collect = lastResortCollection();
    let garbage: unknown[] | null = Array.from({ length: 100_000 }, (_, index) => ({ index, text: `linha ${index}` }));
    expect(garbage.length).toBe(100_000);
    garbage = null;
    collect();
    expect("gc" in globalThis).toBe(false);
  });
});
