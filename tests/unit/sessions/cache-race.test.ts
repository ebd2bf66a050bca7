/**
 * The gate's session cache when a revocation commits while a lookup is in flight: the entry that
 * lookup read (the session as it was) must not be kept as if it were read after the revocation.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { closeDatabase, connectDatabase, type Db } from "../../../src/lib/server/data/db";
import { createSession, invalidateUserSessions } from "../../../src/lib/server/sessions/session";
import { createSessionValidator } from "../../../src/lib/server/sessions/cache";
import { createTestUser, openOwnTestDatabase } from "../../support/users";

/** The next lookup reads the row, says so through `read`, then waits for `release` before answering. */
let hold: { read: PromiseWithResolvers<void>; release: PromiseWithResolvers<void> } | null = null;

vi.mock("../../../src/lib/server/sessions/session", async (importOriginal) => {
  const original = await importOriginal<typeof import("../../../src/lib/server/sessions/session")>();
  return {
    ...original,
    lookupSession: async (db: Db, id: string) => {
      const entry = await original.lookupSession(db, id);
      const current = hold;
      hold = null;
      if (current) {
        current.read.resolve();
        await current.release.promise;
      }
      return entry;
    },
  };
});

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "b1-cache-race-"));
let db: Db;
let other: Db;
beforeAll(async () => {
  const opened = await openOwnTestDatabase(path.join(dir, "db.sqlite"));
  db = opened.db;
  other = connectDatabase(opened.target);
});
afterAll(async () => {
  await closeDatabase(other);
  await closeDatabase(db);
  fs.rmSync(dir, { recursive: true, force: true });
});

it("a session read just before it was ended is not cached as current: the next request is refused", async () => {
  const validate = createSessionValidator(db);
  const user = await createTestUser(db, ["visualizador"]);
  const { token } = await createSession(db, user.id);

  const read = Promise.withResolvers<void>();
  const release = Promise.withResolvers<void>();
  hold = { read, release };
  // Request A: not cached, so it looks the session up and is held right after reading the row.
  const first = validate(token);
  await read.promise;
  // Another connection ends the session (the counter moves); request B sees that and is refused.
  await invalidateUserSessions(other, user.id);
  expect(await validate(token)).toBeNull();
  // A answers for the moment it read (it began before the revocation)…
  release.resolve();
  expect(await first).not.toBeNull();
  // …but what it read must not serve the requests that come after the revocation.
  expect(await validate(token)).toBeNull();
  expect(await validate(token)).toBeNull();
});
