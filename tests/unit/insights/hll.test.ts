/** The readers sketch: register/rank extraction and the estimate's error, measured over keyed hashes. */
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { estimateDistinct, HLL_REGISTERS, readerRegister, registerOf } from "../../../src/lib/server/insights/hll";

function estimateOf(count: number, key: Buffer, page = "/faq"): number {
  const registers = new Map<number, number>();
  for (let index = 0; index < count; index++) {
    const { register, rank } = readerRegister(key, `pessoa-${index}`, page);
    registers.set(register, Math.max(registers.get(register) ?? 0, rank));
  }
  return estimateDistinct(registers.values());
}

describe("HyperLogLog of readers", () => {
  it("takes the register from the top 10 bits and the rank from the first 1 bit after them", () => {
    expect(registerOf(0xffc00000 | 0x200000, 0)).toEqual({ register: 1023, rank: 1 });
    expect(registerOf(0x00000001, 0)).toEqual({ register: 0, rank: 22 });
    expect(registerOf(0, 0x80000000)).toEqual({ register: 0, rank: 23 });
    expect(registerOf(0, 0)).toEqual({ register: 0, rank: 55 });
  });

  it("estimates nothing for an empty sketch and is within the stated error at every scale", () => {
    expect(estimateDistinct([])).toBe(0);
    // A fixed key: the test is deterministic (a random key per week only changes which people collide).
    const key = Buffer.alloc(32, 7);
    const errors: string[] = [];
    for (const count of [1, 3, 10, 50, 200, 1000, 5000, 20000]) {
      const estimate = estimateOf(count, key);
      const error = Math.abs(estimate - count) / count;
      errors.push(`${count}: ${estimate} (${(error * 100).toFixed(1)} %)`);
      // Linear counting below 2.5 × m (a few people at most off at page scale); 4 standard errors above.
      if (count <= 2.5 * HLL_REGISTERS) expect(Math.abs(estimate - count)).toBeLessThanOrEqual(Math.max(2, count * 0.05));
      else expect(error).toBeLessThan(4 * (1.04 / Math.sqrt(HLL_REGISTERS)));
    }
    console.log(`erro medido do esboço: ${errors.join("; ")}`);
  });

  it("unions sketches by taking the larger rank per register, and another key gives other registers", () => {
    const key = randomBytes(32);
    const one = readerRegister(key, "pessoa", "/faq");
    expect(readerRegister(key, "pessoa", "/faq")).toEqual(one);
    const others = [0, 1, 2, 3].map(() => readerRegister(randomBytes(32), "pessoa", "/faq").register);
    expect(others.some((register) => register !== one.register)).toBe(true);
  });
});
