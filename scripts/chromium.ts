import fs from "node:fs";
import type { LaunchOptions } from "@playwright/test";

/**
 * Debian's headless-only Chromium (package chromium-headless-shell: the build Playwright itself runs
 * headless by default) when it is installed, else its full Chromium (Playwright's own download is not
 * reachable here). The full browser's headless mode drew a third to a half more CPU for the same
 * specs (docs/decisions.md), and CPU is what the test run waits for on 2 cores. CHROMIUM_PATH overrides
 * the binary. Shared by playwright.config.ts and the bench.
 */
function debianChromium(): string {
  return ["/usr/bin/chromium-headless-shell", "/usr/bin/chromium"].find((candidate) => fs.existsSync(candidate)) ?? "/usr/bin/chromium";
}

export const chromiumLaunchOptions: LaunchOptions = {
  executablePath: process.env.CHROMIUM_PATH || debianChromium(),
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
  ],
};
