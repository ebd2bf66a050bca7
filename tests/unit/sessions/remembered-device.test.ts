import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rememberedDevices, users } from "../../../db/schema/index";
import { closeDatabase, type Db } from "../../../src/lib/server/data/db";
import {
  deviceCookieHeader,
  DEVICE_LIFETIME_MS,
  findRememberedDevice,
  pruneRememberedDevices,
  rememberDevice,
} from "../../../src/lib/server/sessions/remembered-device";
import { createTestUser, openOwnTestDatabase } from "../../support/users";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "b1-device-"));
let db: Db;
beforeAll(async () => {
  ({ db } = await openOwnTestDatabase(path.join(dir, "db.sqlite")));
});
afterAll(async () => {
  await closeDatabase(db);
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("remembered devices", () => {
  it("the cookie is HttpOnly, SameSite=Strict, 180 days, and __Host- with Secure over https", () => {
    const device = { token: "a".repeat(32), expiresAt: Date.now() + DEVICE_LIFETIME_MS };
    expect(deviceCookieHeader(device, true)).toMatch(
      /^__Host-b1_device=a{32}; Path=\/; HttpOnly; SameSite=Strict; Max-Age=(15552000|155519\d\d); Secure$/,
    );
    expect(deviceCookieHeader(device, false)).toMatch(
      /^b1_device=a{32}; Path=\/; HttpOnly; SameSite=Strict; Max-Age=(15552000|155519\d\d)$/,
    );
  });

  it("a token proves its account; only its hash is stored; a planted twin, the wrong name or a deactivated account prove nothing", async () => {
    const user = await createTestUser(db, ["visualizador"], "aparelho");
    const { token } = await rememberDevice(db, user.id);
    const rows = await db.select().from(rememberedDevices).where(eq(rememberedDevices.userId, user.id));
    expect(rows.map((row) => row.tokenHash)).not.toContain(token);
    expect(await findRememberedDevice(db, `x=1; __Host-b1_device=${token}`, true)).toMatchObject({ userId: user.id, email: user.email });
    expect(await findRememberedDevice(db, `b1_device=${token}`, true)).toBeNull();
    expect(await findRememberedDevice(db, `__Host-b1_device=${token}; __Host-b1_device=${"b".repeat(32)}`, true)).toBeNull();
    await db.update(users).set({ deactivatedAt: Date.now() }).where(eq(users.id, user.id));
    expect(await findRememberedDevice(db, `b1_device=${token}`, false)).toBeNull();
  });

  it("an account keeps its 20 newest devices; expired ones prove nothing and are pruned", async () => {
    const user = await createTestUser(db, ["visualizador"], "aparelhos");
    const start = Date.now() - DEVICE_LIFETIME_MS - 60_000;
    const tokens: string[] = [];
    for (let i = 0; i < 22; i++) tokens.push((await rememberDevice(db, user.id, start + i)).token);
    expect(await db.select().from(rememberedDevices).where(eq(rememberedDevices.userId, user.id))).toHaveLength(20);
    expect(await findRememberedDevice(db, `b1_device=${tokens[0]}`, false, start)).toBeNull();
    expect(await findRememberedDevice(db, `b1_device=${tokens[21]}`, false, start)).not.toBeNull();
    // Every one of them is past its 180 days now.
    expect(await findRememberedDevice(db, `b1_device=${tokens[21]}`, false)).toBeNull();
    await pruneRememberedDevices(db);
    expect(await db.select().from(rememberedDevices).where(eq(rememberedDevices.userId, user.id))).toHaveLength(0);
  });
});
