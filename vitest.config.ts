/// <reference types="vitest/config" />
import { getViteConfig } from "astro/config";

// Unit tests and integration tests (built server); Playwright specs live in tests/e2e and run separately.
export default getViteConfig({
  test: {
    include: ["tests/unit/**/*.test.ts", "tests/integration/**/*.test.ts"],
    testTimeout: 20_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Two files at a time: integration files mostly wait on their server process (205 s instead of 420 s here).
    maxWorkers: 2,
  },
});
