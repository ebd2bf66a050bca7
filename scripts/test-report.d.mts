/** One block per failed test in a vitest or Playwright JSON report: "✗ file > name" then its message. */
export function failureReport(report: unknown, cwd?: string): string[];
/** For each failed Playwright test, the server log's slow, warning and error lines from that test's window. */
export function serverLogDuring(report: unknown, logText: string): string[];
