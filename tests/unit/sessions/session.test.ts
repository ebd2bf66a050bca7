import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { encodeHexLowerCase } from "@oslojs/encoding";
import { sessions } from "../../../db/schema/index";
import {
  ACTIVITY_CHECK_INTERVAL_MS,
  INACTIVITY_TIMEOUT_MS,
  createSession,
  hashSecret,
  invalidateUserSessions,
  validateSessionToken,
} from "../../../src/lib/server/sessions/session";
import { closeDatabase, connectDatabase, type Db } from "../../../src/lib/server/data/db";
import { createTestUser, openOwnTestDatabase } from "../../support/users";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "b1-session-"));
let db: Db;
let target: string;
beforeAll(async () => {
  ({ db, target } = await openOwnTestDatabase(path.join(dir, "db.sqlite")));
});
afterAll(async () => {
  await closeDatabase(db);
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("sessions (Lucia guide)", () => {
  it("issues <id>.<secret> tokens of 120 bits each and stores only the secret's SHA-256", async () => {
    const user = await createTestUser(db, []);
    const { token } = await createSession(db, user.id, {}, 1_000);
    expect(token).toMatch(/^[a-z2-7]{24}\.[a-z2-7]{24}$/);
    const [id, secret] = token.split(".") as [string, string];
    const row = (await db.select().from(sessions).where(eq(sessions.id, id)))[0]!;
    expect(row.secretHash).toBe(encodeHexLowerCase(hashSecret(secret)));
    expect(JSON.stringify(row)).not.toContain(secret);
  });

  it("validates, then renews at most once per activity interval (sliding expiry)", async () => {
    const user = await createTestUser(db, ["lider"]);
    const t0 = 10_000_000;
    const { token } = await createSession(db, user.id, {}, t0);
    const first = (await validateSessionToken(db, token, t0 + 1000))!;
    expect(first.session.renewed).toBe(false);
    expect(first.principal.roles).toEqual(["lider"]);
    const later = (await validateSessionToken(db, token, t0 + ACTIVITY_CHECK_INTERVAL_MS))!;
    expect(later.session.renewed).toBe(true);
    expect(later.session.expiresAt).toBe(t0 + ACTIVITY_CHECK_INTERVAL_MS + INACTIVITY_TIMEOUT_MS);
    // Still alive past the original expiry because it was used.
    expect(await validateSessionToken(db, token, t0 + INACTIVITY_TIMEOUT_MS + 1000)).not.toBeNull();
  });

  it("expires after inactivity and deletes the row", async () => {
    const user = await createTestUser(db, []);
    const t0 = 50_000_000;
    const { token } = await createSession(db, user.id, {}, t0);
    expect(await validateSessionToken(db, token, t0 + INACTIVITY_TIMEOUT_MS)).toBeNull();
    const id = token.split(".")[0]!;
    expect((await db.select().from(sessions).where(eq(sessions.id, id)))[0]!).toBeUndefined();
  });

  it("rejects forged, malformed and foreign tokens", async () => {
    const user = await createTestUser(db, []);
    const { token } = await createSession(db, user.id);
    const [id, secret] = token.split(".") as [string, string];
    const flipped = secret.slice(0, -1) + (secret.endsWith("a") ? "b" : "a");
    for (const bad of [
      `${id}.${flipped}`,
      `${id}.`,
      id,
      `${id}.${secret}.x`,
      `${"a".repeat(24)}.${secret}`,
      "",
      `${id.toUpperCase()}.${secret}`,
    ]) {
      expect(await validateSessionToken(db, bad), bad).toBeNull();
    }
    expect(await validateSessionToken(db, token)).not.toBeNull();
  });

  it("ends every session of a user, optionally keeping one", async () => {
    const user = await createTestUser(db, []);
    const a = (await createSession(db, user.id)).token;
    const b = (await createSession(db, user.id)).token;
    await invalidateUserSessions(db, user.id, a.split(".")[0]);
    expect(await validateSessionToken(db, a)).not.toBeNull();
    expect(await validateSessionToken(db, b)).toBeNull();
  });
});

describe("the gate's cached validator", () => {
  it("sees a change committed by another connection on the very next call", async () => {
    const { createSessionValidator } = await import("../../../src/lib/server/sessions/cache");
    const { assignRoleByEmail } = await import("../../../src/lib/server/admin/roles");
    // Another connection: the app's pages, the CLI or another instance.
    const other = connectDatabase(target);
    const user = await createTestUser(db, ["visualizador"]);
    const { token } = await createSession(db, user.id);
    const validate = createSessionValidator(db);
    expect((await validate(token))!.principal.roles).toEqual(["visualizador"]);
    await assignRoleByEmail(other, user.email, "lider");
    expect([...(await validate(token))!.principal.roles].sort()).toEqual(["lider", "visualizador"]);
    await invalidateUserSessions(other, user.id);
    expect(await validate(token)).toBeNull();
    await closeDatabase(other);
  });

  it("still rejects a forged secret for a cached session", async () => {
    const { createSessionValidator } = await import("../../../src/lib/server/sessions/cache");
    const user = await createTestUser(db, []);
    const { token } = await createSession(db, user.id);
    const validate = createSessionValidator(db);
    expect(await validate(token)).not.toBeNull();
    const [id, secret] = token.split(".") as [string, string];
    expect(await validate(`${id}.${secret.slice(0, -1)}${secret.endsWith("a") ? "b" : "a"}`)).toBeNull();
    expect(await validate(`${id}.${secret.slice(0, -1)}`)).toBeNull();
    expect(await validate(token)).not.toBeNull();
    expect(await validate(token, Date.now() + INACTIVITY_TIMEOUT_MS + 1)).toBeNull();
    expect(await validate(token)).toBeNull();
  });
});
