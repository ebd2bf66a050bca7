/**
 * Remembered devices: every full sign-in (password and, when on file, the second factor; or SSO)
 * leaves the browser a long-lived random token bound to the account. It opens nothing by itself; it
 * proves "this browser signed in here before", so the throttle counts its attempts apart from
 * strangers' (throttle/flows.ts) and a flood of guesses from elsewhere never refuses the owner.
 * Only SHA-256 of the token is stored; a password reset, an admin ending the account's sessions or
 * a second-factor reset forgets all of the account's devices.
 */
import { encodeBase32LowerCaseNoPadding, encodeHexLowerCase } from "@oslojs/encoding";
import { and, desc, eq, gt, isNull, lte, notInArray } from "drizzle-orm";
import { rememberedDevices, users } from "../../../../db/schema/index.ts";
import type { Db, Tx } from "../data/db.ts";
import { sha256 } from "../platform/hashing.ts";
import { readOneCookie } from "../platform/cookies.ts";

export const DEVICE_COOKIE = "b1_device";
/** How long a browser stays remembered after its last full sign-in. */
export const DEVICE_LIFETIME_MS = 180 * 24 * 60 * 60 * 1000;
/** Devices kept per account, newest first: a browser signing in again gets a new token, the old ones age out. */
const DEVICES_PER_ACCOUNT = 20;

/** A valid device token presented by a request: whose account it proves, and its id for the throttle's keys. */
export interface RememberedDevice {
  /** SHA-256 of the token (hex): the row's key, safe to name in a counter. */
  id: string;
  userId: string;
  email: string;
}

export interface DeviceToken {
  token: string;
  expiresAt: number;
}

function hashDeviceToken(token: string): string {
  return encodeHexLowerCase(sha256(token));
}

/** Over https the name carries `__Host-` (Secure, Path=/, no Domain), so a sibling subdomain cannot plant one. */
export function deviceCookieName(secure: boolean): string {
  return secure ? `__Host-${DEVICE_COOKIE}` : DEVICE_COOKIE;
}

/** A new device token for the account, written with the sign-in's session (pass its transaction). */
export async function rememberDevice(tx: Db | Tx, userId: string, now = Date.now()): Promise<DeviceToken> {
  const token = encodeBase32LowerCaseNoPadding(crypto.getRandomValues(new Uint8Array(20)));
  const expiresAt = now + DEVICE_LIFETIME_MS;
  await tx.insert(rememberedDevices).values({ tokenHash: hashDeviceToken(token), userId, createdAt: now, expiresAt });
  const newest = tx
    .select({ tokenHash: rememberedDevices.tokenHash })
    .from(rememberedDevices)
    .where(eq(rememberedDevices.userId, userId))
    .orderBy(desc(rememberedDevices.createdAt), desc(rememberedDevices.tokenHash))
    .limit(DEVICES_PER_ACCOUNT);
  await tx.delete(rememberedDevices).where(and(eq(rememberedDevices.userId, userId), notInArray(rememberedDevices.tokenHash, newest)));
  return { token, expiresAt };
}

/** The device a Cookie header proves, or null: none, several (one was planted), unknown, expired, or a deactivated account's. */
export async function findRememberedDevice(
  db: Db,
  cookieHeader: string | null | undefined,
  secure: boolean,
  now = Date.now(),
): Promise<RememberedDevice | null> {
  const name = deviceCookieName(secure);
  if (!cookieHeader?.includes(name)) return null;
  const token = readOneCookie(cookieHeader, name).value ?? "";
  if (!/^[a-z2-7]{32}$/.test(token)) return null;
  const [device] = await db
    .select({ id: rememberedDevices.tokenHash, userId: users.id, email: users.email })
    .from(rememberedDevices)
    .innerJoin(users, eq(users.id, rememberedDevices.userId))
    .where(and(eq(rememberedDevices.tokenHash, hashDeviceToken(token)), gt(rememberedDevices.expiresAt, now), isNull(users.deactivatedAt)));
  return device ?? null;
}

/** Forgets every device of the account (its password changed, or its sessions were ended for it). */
export async function forgetDevices(db: Db | Tx, userId: string): Promise<void> {
  await db.delete(rememberedDevices).where(eq(rememberedDevices.userId, userId));
}

/** Deletes expired devices (run with the hourly retention pass). */
/** In a transaction of its own: on SQLite a statement outside one while another is open is refused (db.ts). */
export async function pruneRememberedDevices(db: Db, now = Date.now()): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.delete(rememberedDevices).where(lte(rememberedDevices.expiresAt, now));
  });
}

/** Path=/ as `__Host-` requires; only same-site requests carry it (the sign-in, code and reset forms), no script reads it. */
export function deviceCookieHeader(device: DeviceToken, secure: boolean): string {
  const maxAge = Math.max(0, Math.floor((device.expiresAt - Date.now()) / 1000));
  return `${deviceCookieName(secure)}=${device.token}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${maxAge}${secure ? "; Secure" : ""}`;
}
