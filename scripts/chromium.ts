import type { LaunchOptions } from "@playwright/test";

/**
 * Debian's Chromium (Playwright's own download is not reachable here), started as the developers'
 * guide prescribes. CHROMIUM_PATH overrides the binary. Shared by playwright.config.ts and the bench.
 */
export const chromiumLaunchOptions: LaunchOptions = {
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
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
