import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { emailTokens } from "../../../db/schema/index";
import { closeDatabase, pgPool, sqliteClient, type Db } from "../../../src/lib/server/data/db";
import { resendLink } from "../../../src/lib/server/auth/email-verification";
import { requestPasswordReset } from "../../../src/lib/server/auth/password-reset";
import { beginAttempt } from "../../../src/lib/server/throttle/throttle";
import { createTestUser, openOwnTestDatabase, type TestUser } from "../../support/users";

let dataDir: string;
let db: Db;
let confirmed: TestUser;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "b1-timing-"));
  // Read by config() on first use: mails go to this run's outbox, and the test domain is allowed.
  process.env.DATABASE_PATH = path.join(dataDir, "db.sqlite");
  process.env.AUTH_ALLOWED_DOMAINS = "b1.example.com";
  process.env.SMTP_URL = "";
  db = (await openOwnTestDatabase(process.env.DATABASE_PATH)).db;
  confirmed = await createTestUser(db, ["visualizador"], "existe");
});
afterAll(async () => {
  await closeDatabase(db);
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** The SQL a call runs before its promise settles, i.e. before the endpoint can answer (either engine's client). */
async function statementsBeforeAnswer(call: () => Promise<unknown>): Promise<string[]> {
  const seen: string[] = [];
  const target = (sqliteClient(db) ?? pgPool(db)) as unknown as Record<string, (...args: unknown[]) => unknown>;
  const method = sqliteClient(db) ? "prepare" : "query";
  const original = target[method]!;
  target[method] = function (this: unknown, ...args: unknown[]) {
    const query = args[0] as string | { text: string };
    seen.push(typeof query === "string" ? query : query.text);
    return original.apply(this, args);
  };
  try {
    await call();
  } finally {
    target[method] = original;
  }
  return seen;
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 300));
const meta = { ipAddress: "127.0.0.1", userAgent: "teste" };

describe("an attacker timing reset and resend requests to learn which accounts exist", () => {
  it("a reset request does the same database work before answering for an existing and an unknown account", async () => {
    const existing = await statementsBeforeAnswer(async () =>
      requestPasswordReset(db, { email: confirmed.email }, meta, await beginAttempt(db, "reset-request", meta)),
    );
    // The first call\'s deferred work must not run inside the second one\'s window.
    await settle();
    const unknown = await statementsBeforeAnswer(async () =>
      requestPasswordReset(db, { email: "ninguem-reset@b1.example.com" }, meta, await beginAttempt(db, "reset-request", meta)),
    );
    expect(existing).toEqual(unknown);
    await settle();
    // The work still happens, after the answer.
    expect(await db.select().from(emailTokens).where(eq(emailTokens.userId, confirmed.id))).toHaveLength(1);
  });

  it("a resend request does the same database work before answering for an existing and an unknown account", async () => {
    const existing = await statementsBeforeAnswer(async () =>
      resendLink(db, { email: confirmed.email, type: "password-reset" }, meta, await beginAttempt(db, "resend-link", meta)),
    );
    // The first call\'s deferred work must not run inside the second one\'s window.
    await settle();
    const unknown = await statementsBeforeAnswer(async () =>
      resendLink(db, { email: "ninguem-resend@b1.example.com", type: "password-reset" }, meta, await beginAttempt(db, "resend-link", meta)),
    );
    expect(existing).toEqual(unknown);
    await settle();
    expect(fs.readdirSync(path.join(dataDir, "outbox")).filter((file) => file.includes(confirmed.email)).length).toBe(2);
  });
});
