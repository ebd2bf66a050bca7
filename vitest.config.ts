/// <reference types="vitest/config" />
import { getViteConfig } from "astro/config";

// Unit tests and integration tests (built server); Playwright specs live in tests/e2e and run separately.
export default getViteConfig({
  test: {
    include: ["tests/unit/**/*.test.ts", "tests/integration/**/*.test.ts"],
    testTimeout: 20_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Three files at a time on 2 cores: integration files mostly wait on their server processes, timeouts and
    // sleeps (the CPU stood at 65–80 % with two). Here, same machine and build: SQLite 347 → 253 s, PostgreSQL 355 → 291 s.
    maxWorkers: 3,
    // The secret Insights' pseudonyms derive from (issue 62), as production sets it; the servers the tests start inherit it.
    env: { INSIGHTS_KEY: "5e".repeat(32) },
  },
});
