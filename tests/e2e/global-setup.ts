import fs from "node:fs";
import path from "node:path";
import { SMTPServer } from "smtp-server";

/**
 * Prepares the run folder and starts a real SMTP server on loopback; the server under test
 * sends to it (SMTP_URL in playwright.config.ts) and each raw message lands in E2E_MAIL_DIR.
 */
export default async function globalSetup() {
  const mailDir = process.env.E2E_MAIL_DIR!;
  fs.mkdirSync(path.dirname(process.env.E2E_DATABASE_PATH!), { recursive: true });
  fs.mkdirSync(mailDir, { recursive: true });
  let count = 0;
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        count += 1;
        fs.writeFileSync(path.join(mailDir, `${Date.now()}-${String(count).padStart(4, "0")}.eml`), Buffer.concat(chunks));
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(Number(process.env.E2E_SMTP_PORT), "127.0.0.1", resolve));
  return async () => {
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  };
}
