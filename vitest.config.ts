/// <reference types="vitest/config" />
import { getViteConfig } from "astro/config";

// Unit and integration tests; Playwright specs live in tests/e2e and run separately.
export default getViteConfig({
  test: {
    include: ["tests/unit/**/*.test.ts"],
    testTimeout: 20_000,
    hookTimeout: 60_000,
    pool: "forks",
  },
});
