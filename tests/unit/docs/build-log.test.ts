/**
 * The build says nothing in English to the person running it: no warning from Astro, Vite or a
 * loader (Shiki and the CSP, an empty collection, Astro's own MDX directive). `npm test` keeps the
 * build's output in test-results/build.log before the tests run; without it (a single file run
 * after no build) there is nothing to read.
 */
import fs from "node:fs";
import { describe, expect, it } from "vitest";

const LOG = "test-results/build.log";

describe.skipIf(!fs.existsSync(LOG))("the build's output", () => {
  it("has no warning", () => {
    const text = fs.readFileSync(LOG, "utf8").replace(/\x1b\[[0-9;]*m/g, "");
    const warnings = text.split("\n").filter((line) => /\[WARN\]|\bwarning\b/i.test(line));
    expect(warnings).toEqual([]);
    expect(text).toContain("build-search:");
  });
});
