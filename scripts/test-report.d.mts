/** One block per failed test in a vitest or Playwright JSON report: "✗ file > name" then its message. */
export function failureReport(report: unknown, cwd?: string): string[];
