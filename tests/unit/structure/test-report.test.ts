import path from "node:path";
import { describe, expect, it } from "vitest";
import { failureReport, serverLogDuring } from "../../../scripts/test-report.mjs";

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

describe("serverLogDuring", () => {
  const log = (time: string, path: string, durationMs: number, level = 30) =>
    JSON.stringify({ level, time, method: "GET", path, status: 200, durationMs, msg: "requisição" });
  const report = {
    suites: [
      {
        specs: [
          {
            title: "matriz",
            file: "access-matrix.spec.ts",
            tests: [{ status: "unexpected", results: [{ startTime: "2026-11-28T05:00:00.000Z", duration: 8_000 }] }],
          },
          {
            title: "outra",
            file: "b.spec.ts",
            tests: [{ status: "expected", results: [{ startTime: "2026-11-28T05:00:00.000Z", duration: 8_000 }] }],
          },
        ],
      },
    ],
  };

  it("names a failed test's slow or troubled server lines from its own window only", () => {
    const text = [
      log("2026-11-28T04:59:59.000Z", "/antes", 2_000),
      log("2026-11-28T05:00:01.000Z", "/rapida", 3),
      log("2026-11-28T05:00:02.000Z", "/api/admin/access-matrix", 6_500),
      log("2026-11-28T05:00:03.000Z", "/aviso", 2, 40),
      "não é JSON",
      '{"time":"2026-11-28T05:00:04.000Z","constructor":1,"__proto__":{"durationMs":9999,"level":50}}',
      log("2026-11-28T05:00:09.000Z", "/depois", 2_000),
    ].join("\n");
    const lines = serverLogDuring(report, text);
    expect(lines[0]).toBe(
      "✗ access-matrix.spec.ts > matriz: o servidor, de 05:00:00.000 a 05:00:08.000 UTC (lentas ≥ 500 ms, avisos, erros):",
    );
    expect(lines.slice(1)).toEqual([
      "    05:00:02.000 GET /api/admin/access-matrix 200 6500 ms",
      "    05:00:03.000 aviso GET /aviso 200 2 ms",
    ]);
  });

  it("says so when the window had nothing slow, and prints nothing when every test passed", () => {
    expect(serverLogDuring(report, log("2026-11-28T05:00:01.000Z", "/rapida", 3))[1]).toBe("    (nada lento, nenhum aviso)");
    expect(serverLogDuring({ suites: [] }, log("2026-11-28T05:00:01.000Z", "/x", 9_000))).toEqual([]);
  });
});
