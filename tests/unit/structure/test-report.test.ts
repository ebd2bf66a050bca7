import path from "node:path";
import { describe, expect, it } from "vitest";
import { failureReport } from "../../../scripts/test-report.mjs";

// Shapes as vitest's and Playwright's JSON reporters write them (trimmed to the fields read).
const vitestReport = {
  testResults: [
    {
      name: path.join("/repo", "tests/unit/a.test.ts"),
      assertionResults: [
        { status: "passed", fullName: "grupo passa", failureMessages: [] },
        {
          status: "failed",
          fullName: "grupo falha",
          failureMessages: [
            "\u001b[31mAssertionError: expected 1 to be 2\u001b[39m\n    at /repo/tests/unit/a.test.ts:2:57\n    at file:///repo/node_modules/vitest/dist/run.js:1:1",
          ],
        },
      ],
    },
  ],
};

const playwrightReport = {
  suites: [
    {
      file: "a.spec.ts",
      specs: [{ title: "passa", file: "a.spec.ts", tests: [{ status: "expected", results: [] }] }],
      suites: [
        {
          file: "a.spec.ts",
          specs: [
            {
              title: "falha no teclado",
              file: "a.spec.ts",
              tests: [{ status: "unexpected", results: [{ error: { message: "Error: foco perdido" } }] }],
            },
          ],
        },
      ],
    },
  ],
};

describe("the failure report at the end of npm test", () => {
  it("names a failed vitest test with its file and message, without colours or library frames", () => {
    const [only, ...rest] = failureReport(vitestReport, "/repo");
    expect(rest).toEqual([]);
    expect(only).toBe(
      "✗ tests/unit/a.test.ts > grupo falha\n    AssertionError: expected 1 to be 2\n        at /repo/tests/unit/a.test.ts:2:57",
    );
  });

  it("names a failed Playwright test inside nested suites", () => {
    expect(failureReport(playwrightReport)).toEqual(["✗ a.spec.ts > falha no teclado\n    Error: foco perdido"]);
  });

  it("says nothing for a passing or missing report", () => {
    expect(failureReport({ testResults: [{ name: "/repo/x.test.ts", assertionResults: [{ status: "passed" }] }] })).toEqual([]);
    expect(failureReport(null)).toEqual([]);
  });
});
