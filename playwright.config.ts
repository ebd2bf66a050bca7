import path from "node:path";
import { defineConfig } from "@playwright/test";
import { chromiumLaunchOptions } from "./scripts/chromium";

// One fresh database per run, shared by the server under test and the fixtures that seed users.
const runDir = path.resolve("test-results", "e2e-run");
process.env.E2E_DATABASE_PATH ??= path.join(runDir, `db-${Date.now()}.sqlite`);
process.env.E2E_MAIL_DIR ??= path.join(runDir, "mail");
const port = Number(process.env.E2E_PORT ?? 4399);
const smtpPort = Number(process.env.E2E_SMTP_PORT ?? 2599);
process.env.E2E_SMTP_PORT = String(smtpPort);
// The directory's token in the e2e run (SCIM provisioning spec); ≥ 32 characters as the start requires.
process.env.E2E_SCIM_TOKEN ??= "e2e-scim-token-0123456789abcdef0123456789";

export default defineConfig({
  testDir: "tests/e2e",
  outputDir: "test-results/e2e",
  fullyParallel: false,
  // Two files at a time against the one server (each test makes its own users); 6 min instead of 8.5 here.
  workers: 2,
  timeout: 30_000,
  expect: { timeout: 7_000 },
  reporter: [["list"], ["json", { outputFile: "test-results/playwright.json" }]],
  globalSetup: "./tests/e2e/global-setup.ts",
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    locale: "pt-BR",
    timezoneId: "America/Sao_Paulo",
    launchOptions: chromiumLaunchOptions,
  },
  webServer: {
    // Its log (a line per request, with its duration) is kept for a failure's inquest: test-results/e2e-run/server.log.
    command: `mkdir -p "${runDir}" && exec node --disable-proto=throw dist/gate/main.mjs >> "${path.join(runDir, "server.log")}" 2>&1`,
    url: `http://127.0.0.1:${port}/auth`,
    reuseExistingServer: false,
    timeout: 60_000,
    env: {
      PORT: String(port),
      HOST: "127.0.0.1",
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      DATABASE_PATH: process.env.E2E_DATABASE_PATH,
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      MAIL_FROM: "B1 Method Hub <nao-responda@b1.example.com>",
      AUTH_ALLOWED_DOMAINS: "b1.example.com",
      RATE_LIMIT_MULTIPLIER: "50",
      SCIM_TOKEN: process.env.E2E_SCIM_TOKEN,
      // The weekly reading reminder would mail the specs' users mid-run; it is tested on its own.
      READING_DIGEST: "false",
      // The secret Insights' pseudonyms derive from (issue 62), as production sets it.
      INSIGHTS_KEY: "5e".repeat(32),
      // Audit streaming to a webhook nobody answers: the Integrações tab shows a lag and the error (integrations.spec.ts).
      AUDIT_WEBHOOK_URL: "http://127.0.0.1:9/b1-auditoria",
      AUDIT_WEBHOOK_SECRET: "e2e-webhook-secret-0123456789abcdef0123",
      // Destinations from the panel (issue 64): the key that seals their secrets; the spec's collector is on loopback.
      AUDIT_DESTINATION_KEY: "3c".repeat(32),
      AUDIT_DESTINATIONS_ALLOW_PRIVATE: "true",
    },
  },
});
