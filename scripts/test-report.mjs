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

/** A server log line at or above this duration is named in a failure's inquest. */
const SLOW_MS = 500;
const MAX_LOG_LINES = 15;

/**
 * For each failed Playwright test, the lines of the server's log (JSON, one per line, as the gate
 * writes it) from that test's own window that were slow (≥ SLOW_MS), warnings or errors: a test that
 * waited for the server says in the CI log's tail whether the server was what it waited for.
 */
export function serverLogDuring(report, logText) {
  const windows = [];
  const walk = (suites) => {
    for (const suite of suites ?? []) {
      for (const spec of suite.specs ?? [])
        for (const test of spec.tests ?? [])
          if (test.status === "unexpected")
            for (const result of test.results ?? []) {
              const start = Date.parse(result.startTime);
              if (Number.isFinite(start))
                windows.push({ title: `${spec.file} > ${spec.title}`, start, end: start + (result.duration ?? 0) });
            }
      walk(suite.suites);
    }
  };
  walk(report?.suites);
  if (windows.length === 0) return [];
  const entries = [];
  for (const line of logText.split("\n")) {
    let entry;
    try {
      entry = JSON.parse(line);
    } catch {
      continue;
    }
    if (entry === null || typeof entry !== "object") continue;
    const own = (key) => (Object.hasOwn(entry, key) ? entry[key] : undefined);
    const at = Date.parse(own("time"));
    const durationMs = Number(own("durationMs") ?? 0);
    const level = Number(own("level") ?? 30);
    if (Number.isFinite(at) && (durationMs >= SLOW_MS || level >= 40)) entries.push({ at, durationMs, level, own });
  }
  const clock = (time) => new Date(time).toISOString().slice(11, 23);
  const out = [];
  for (const { title, start, end } of windows) {
    out.push(`✗ ${title}: o servidor, de ${clock(start)} a ${clock(end)} UTC (lentas ≥ ${SLOW_MS} ms, avisos, erros):`);
    const inside = entries.filter((entry) => entry.at >= start && entry.at <= end).slice(0, MAX_LOG_LINES);
    if (inside.length === 0) out.push("    (nada lento, nenhum aviso)");
    for (const { at, durationMs, level, own } of inside) {
      const kind = level >= 50 ? "erro " : level >= 40 ? "aviso " : "";
      const what = own("path") ? `${own("method")} ${own("path")} ${own("status")} ${durationMs} ms` : String(own("msg") ?? "");
      out.push(`    ${clock(at)} ${kind}${what}`.slice(0, MAX_WIDTH));
    }
  }
  return out;
}
