/** INSIGHTS_KEY (issue 62): 32 bytes as hex or base64, or nothing; anything else stops the start with a clear message. */
import { describe, expect, it } from "vitest";
import { readConfig } from "../../../src/lib/server/config/config";

describe("INSIGHTS_KEY", () => {
  it("reads 64 hex characters or 32 bytes of base64; empty means none", () => {
    expect(readConfig({ INSIGHTS_KEY: "ab".repeat(32) }).insightsKey).toEqual(Buffer.alloc(32, 0xab));
    expect(readConfig({ INSIGHTS_KEY: Buffer.alloc(32, 1).toString("base64") }).insightsKey).toEqual(Buffer.alloc(32, 1));
    expect(readConfig({ INSIGHTS_KEY: "  " }).insightsKey).toBeNull();
    expect(readConfig({}).insightsKey).toBeNull();
  });

  it("refuses a short, long or hostile value instead of deriving pseudonyms from it", () => {
    for (const value of [
      "abc",
      "ab".repeat(31),
      "ab".repeat(33),
      "__proto__",
      "constructor",
      "9".repeat(70_000),
      "ab".repeat(31) + "\u202e\u202e",
    ]) {
      expect(() => readConfig({ INSIGHTS_KEY: value })).toThrow(/INSIGHTS_KEY deve ter 32 bytes/);
    }
  });
});
