import { createRequire } from "node:module";
import { cruise, type IReporterOutput } from "dependency-cruiser";
import { describe, expect, it } from "vitest";

const rules = createRequire(import.meta.url)("../../../.dependency-cruiser.cjs");

describe("import structure", () => {
  it("has no cycle and every arrow points down the layers (src/lib ↛ entries, scripts ↛ tests, islands ↛ server)", async () => {
    const result: IReporterOutput = await cruise(["src", "scripts", "db"], { ruleSet: rules, ...rules.options, validate: true });
    if (typeof result.output === "string") throw new Error("unexpected string output");
    const { summary, modules } = result.output;
    // Guards against a vacuous pass: the cruise really walked the code base.
    expect(modules.length).toBeGreaterThan(100);
    const violations = summary.violations.map(
      (v) => `${v.rule.name}: ${v.from} → ${v.to}${v.cycle ? ` (${v.cycle.map((c) => c.name).join(" → ")})` : ""}`,
    );
    expect(violations).toEqual([]);
  });
});
