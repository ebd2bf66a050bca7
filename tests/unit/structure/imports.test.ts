import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { cruise, type IReporterOutput } from "dependency-cruiser";
import { describe, expect, it } from "vitest";

const rules = createRequire(import.meta.url)("../../../.dependency-cruiser.cjs");

/** The modules walked and the rules broken, one line each. */
async function cruiseWithRules(dirs: string[], baseDir?: string): Promise<{ modules: number; violations: string[] }> {
  const result: IReporterOutput = await cruise(dirs, { ruleSet: rules, ...rules.options, validate: true, ...(baseDir ? { baseDir } : {}) });
  if (typeof result.output === "string") throw new Error("unexpected string output");
  return {
    modules: result.output.modules.length,
    violations: result.output.summary.violations.map(
      (v) => `${v.rule.name}: ${v.from} → ${v.to}${v.cycle ? ` (${v.cycle.map((c) => c.name).join(" → ")})` : ""}`,
    ),
  };
}

const domainRules = (rules.forbidden as { name: string }[]).filter((rule) => rule.name.startsWith("domain-"));

describe("import structure", () => {
  // One walk of the whole code base (it was two): several seconds of CPU, so its own time budget on a busy machine.
  it(
    "has no cycle and every arrow points down the layers (src/lib ↛ entries, scripts ↛ tests, islands ↛ server, domains ↛ domains above)",
    { timeout: 60_000 },
    async () => {
      const { modules, violations } = await cruiseWithRules(["src", "scripts", "db"]);
      // Guards against a vacuous pass: the cruise really walked the code base.
      expect(modules).toBeGreaterThan(100);
      expect(violations).toEqual([]);
    },
  );

  it("every server module lives in a domain folder that has its rule", () => {
    const entries = fs.readdirSync("src/lib/server", { withFileTypes: true });
    expect(entries.filter((entry) => entry.isFile()).map((entry) => entry.name)).toEqual([]);
    const folders = entries.filter((entry) => entry.isDirectory()).map((entry) => `domain-${entry.name}`);
    expect(folders.sort()).toEqual(domainRules.map((rule) => rule.name).sort());
  });

  it("refuses a domain that imports one above it, and data code that imports a domain", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "b1-imports-"));
    const write = (file: string, text: string) => {
      fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      fs.writeFileSync(path.join(dir, file), text);
    };
    try {
      write("src/lib/server/auth/user.ts", "export const user = 1;\n");
      write("src/lib/server/audit/audit.ts", 'import { user } from "../auth/user.ts";\nexport const audit = user;\n');
      write("src/lib/server/data/db.ts", 'import { audit } from "../audit/audit.ts";\nexport const db = audit;\n');
      expect((await cruiseWithRules(["src"], dir)).violations.sort()).toEqual([
        "domain-audit: src/lib/server/audit/audit.ts → src/lib/server/auth/user.ts",
        "domain-data: src/lib/server/data/db.ts → src/lib/server/audit/audit.ts",
      ]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
