// Reads a vitest or Playwright JSON report and names each failed test with the first lines of its
// message, so the tail of a CI log says what broke even when the runner's own output scrolled away.
import path from "node:path";

const MAX_LINES = 8;
const MAX_WIDTH = 300;

/** One block per failed test: "✗ file > name" then its indented message. Empty when all passed. */
export function failureReport(report, cwd = process.cwd()) {
  if (!report) return [];
  const blocks = [];
  // vitest: testResults[].assertionResults[]
  for (const file of report.testResults ?? [])
    for (const test of file.assertionResults ?? [])
      if (test.status === "failed") blocks.push(block(`${path.relative(cwd, file.name)} > ${test.fullName}`, test.failureMessages ?? []));
  // Playwright: nested suites[].specs[].tests[] with results[].error
  const walk = (suites) => {
    for (const suite of suites ?? []) {
      for (const spec of suite.specs ?? [])
        for (const test of spec.tests ?? [])
          if (test.status === "unexpected")
            blocks.push(
              block(
                `${spec.file} > ${spec.title}`,
                (test.results ?? []).map((result) => result.error?.message ?? ""),
              ),
            );
      walk(suite.suites);
    }
  };
  walk(report.suites);
  return blocks;
}

function block(title, messages) {
  const lines = messages
    .join("\n")
    .replace(/\x1b\[[0-9;]*m/g, "")
    .split("\n")
    .filter((line) => line.trim() && !line.includes("node_modules"))
    .slice(0, MAX_LINES)
    .map((line) => `    ${line.slice(0, MAX_WIDTH)}`);
  return [`✗ ${title}`, ...lines].join("\n");
}
