import fs from "node:fs";
import path from "node:path";

/** Prepares the run folder; the SMTP sink for mail tests is started by tests/support/smtp-sink.ts. */
export default async function globalSetup() {
  fs.mkdirSync(path.dirname(process.env.E2E_DATABASE_PATH!), { recursive: true });
  fs.mkdirSync(process.env.E2E_MAIL_DIR!, { recursive: true });
}
