import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { JS_BUDGET, pageWeights } from "../../../scripts/page-weights";

/**
 * The JS budget of issue 7, held on every build (`npm test` builds first): what a page loads before
 * any interaction, gzip. `npm run bench` prints the same figures per route.
 */
describe.skipIf(!fs.existsSync("dist/pages"))("JS budget of the built pages", () => {
  const weights = pageWeights();

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
