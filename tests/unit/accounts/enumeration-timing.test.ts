import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { emailTokens } from "../../../db/schema/index";
import type { Db } from "../../../src/lib/server/db";
import { resendLink } from "../../../src/lib/server/email-verification";
import { requestPasswordReset } from "../../../src/lib/server/password-reset";
import { createTestUser, openTestDatabase, type TestUser } from "../../support/users";

let dataDir: string;
let db: Db;
let confirmed: TestUser;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "b1-timing-"));
  // Read by config() on first use: mails go to this run's outbox, and the test domain is allowed.
  process.env.DATABASE_PATH = path.join(dataDir, "db.sqlite");
  process.env.AUTH_ALLOWED_DOMAINS = "b1.example.com";
  process.env.SMTP_URL = "";
  db = openTestDatabase(process.env.DATABASE_PATH);
  confirmed = await createTestUser(db, ["visualizador"], "existe");
});
afterAll(() => {
  db.$client.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** The SQL a call runs before it returns, i.e. before the endpoint can answer. */
function statementsBeforeAnswer(call: () => unknown): string[] {
  const seen: string[] = [];
  const prepare = db.$client.prepare.bind(db.$client);
  db.$client.prepare = ((source: string) => {
    seen.push(source);
    return prepare(source);
  }) as typeof db.$client.prepare;
  try {
    call();
  } finally {
    db.$client.prepare = prepare;
  }
  return seen;
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 300));
const meta = { ipAddress: "127.0.0.1", userAgent: "teste" };

describe("an attacker timing reset and resend requests to learn which accounts exist", () => {
  it("a reset request does the same database work before answering for an existing and an unknown account", async () => {
    const existing = statementsBeforeAnswer(() => await requestPasswordReset(db, { email: confirmed.email }, meta));
    const unknown = statementsBeforeAnswer(() => await requestPasswordReset(db, { email: "ninguem-reset@b1.example.com" }, meta));
    expect(existing).toEqual(unknown);
    await settle();
    // The work still happens, after the answer.
    expect((await db.select().from(emailTokens).where(eq(emailTokens.userId, confirmed.id)))).toHaveLength(1);
  });

  it("a resend request does the same database work before answering for an existing and an unknown account", async () => {
    const existing = statementsBeforeAnswer(() => await resendLink(db, { email: confirmed.email, type: "password-reset" }, meta));
    const unknown = statementsBeforeAnswer(() => await resendLink(db, { email: "ninguem-resend@b1.example.com", type: "password-reset" }, meta));
    expect(existing).toEqual(unknown);
    await settle();
    expect(fs.readdirSync(path.join(dataDir, "outbox")).filter((file) => file.includes(confirmed.email)).length).toBe(2);
  });
});
