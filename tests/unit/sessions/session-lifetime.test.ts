import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { sessions } from "../../../db/schema/index";
import { createSession, validateSessionToken } from "../../../src/lib/server/sessions/session";
import { createSessionValidator } from "../../../src/lib/server/sessions/cache";
import { closeDatabase, type Db } from "../../../src/lib/server/data/db";
import { createTestUser, openOwnTestDatabase } from "../../support/users";

const DAY = 24 * 60 * 60 * 1000;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "b1-lifetime-"));
let db: Db;
beforeAll(async () => {
  db = (await openOwnTestDatabase(path.join(dir, "db.sqlite"))).db;
});
afterAll(async () => {
  await closeDatabase(db);
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("a stolen session cookie kept alive by a request every few days", () => {
  const validators = {
    validateSessionToken: () => (token: string, now: number) => validateSessionToken(db, token, now),
    "the gate's cached validator": () => createSessionValidator(db),
  };

  it.each(Object.entries(validators))("dies 30 days after sign-in whatever the activity (%s)", async (_name, makeValidator) => {
    const validate = makeValidator();
    const user = await createTestUser(db, ["visualizador"]);
    const t0 = Date.now();
    const { token } = await createSession(db, user.id, {}, t0);
    for (let day = 6; day < 30; day += 6) {
      const alive = await validate(token, t0 + day * DAY);
      expect(alive, `dia ${day}`).not.toBeNull();
      // The renewed expiry (and so the cookie's Max-Age) never passes the absolute limit.
      expect(alive!.session.expiresAt).toBeLessThanOrEqual(t0 + 30 * DAY);
    }
    expect(await validate(token, t0 + 30 * DAY)).toBeNull();
    expect(
      (
        await db
          .select()
          .from(sessions)
          .where(eq(sessions.id, token.split(".")[0]!))
      )[0],
    ).toBeUndefined();
  });
});
