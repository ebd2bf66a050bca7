import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mustEnrolTwoFactor, type AuthMethod } from "../../../src/lib/auth/two-factor-policy";
import { createSession, validateSessionToken } from "../../../src/lib/server/sessions/session";
import { closeDatabase, type Db } from "../../../src/lib/server/data/db";
import { createTestUser, openOwnTestDatabase } from "../../support/users";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "b1-auth-method-"));
let db: Db;
beforeAll(async () => {
  ({ db } = await openOwnTestDatabase(path.join(dir, "db.sqlite")));
});
afterAll(async () => {
  await closeDatabase(db);
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("how a session was opened", () => {
  it("is recorded with the session: the password alone unless the caller says more", async () => {
    const user = await createTestUser(db, ["admin"]);
    const opened = async (authMethod?: AuthMethod) =>
      (await validateSessionToken(db, (await createSession(db, user.id, authMethod ? { authMethod } : {})).token))!.session.authMethod;
    expect(await opened()).toBe("password");
    expect(await opened("two_factor")).toBe("two_factor");
    expect(await opened("sso")).toBe("sso");
  });

  it("the two-factor requirement asks the session, not the account: only a password-only session of a required role must enrol", async () => {
    const user = await createTestUser(db, ["admin"]);
    const token = (await createSession(db, user.id)).token;
    const { principal } = (await validateSessionToken(db, token))!;
    const required = ["admin", "security"];
    expect(mustEnrolTwoFactor({ principal, session: { authMethod: "password" } }, required)).toBe(true);
    expect(mustEnrolTwoFactor({ principal, session: { authMethod: "two_factor" } }, required)).toBe(false);
    // The identity provider answers for its own multi-factor sign-in.
    expect(mustEnrolTwoFactor({ principal, session: { authMethod: "sso" } }, required)).toBe(false);
    expect(mustEnrolTwoFactor({ principal, session: { authMethod: "password" } }, ["security"])).toBe(false);
    expect(mustEnrolTwoFactor(null, required)).toBe(false);
  });
});
