import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { JS_BUDGET, pageWeights } from "../../../scripts/bench/page-weights";

/**
 * The JS budget (81 920 B gzip with islands), held on every build (`npm test` builds first): what a page loads before
 * any interaction, gzip. `npm run bench` prints the same figures per route.
 */
describe("JS budget of the built pages", () => {
  // `npm test` builds first; a missing build is a failure, never a silent skip.
  it("has a build to measure", () => {
    expect(fs.existsSync("dist/pages"), "dist/pages ausente: rode `npm run build` antes").toBe(true);
  });

  const weights = fs.existsSync("dist/pages") ? pageWeights() : [];

  it("covers every page", () => {
    expect(weights.map((w) => w.route)).toEqual(expect.arrayContaining(["/", "/auth", "/faq", "/admin-panel", "/trilha-interativa"]));
  });

  for (const page of weights) {
    const budget = page.islands ? JS_BUDGET.islands : JS_BUDGET.static;
    it(`${page.route} (${page.islands} ilhas) ≤ ${budget / 1024} KB de JS gzip`, () => {
      expect(page.jsGzip).toBeLessThanOrEqual(budget);
    });
  }
});
