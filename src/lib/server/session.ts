import { hash, timingSafeEqual } from "node:crypto";
import { constantTimeEqual } from "@oslojs/crypto/subtle";
import { encodeBase32LowerCaseNoPadding, encodeHexLowerCase } from "@oslojs/encoding";
import { eq, sql } from "drizzle-orm";
import { roles, sessions, userRoles, users, rolePermissions, pages } from "../../../db/schema/index.ts";
import type { Principal } from "../routes.ts";
import type { Db } from "./db.ts";
import { config } from "./config.ts";

/** A session ends after this much inactivity. */
export const INACTIVITY_TIMEOUT_MS = 7 * 24 * 60 * 60 * 1000;
/** `last_verified_at` is written at most this often (sliding expiry without a write per request). */
export const ACTIVITY_CHECK_INTERVAL_MS = 60 * 60 * 1000;
export const SESSION_COOKIE = "b1_session";

export interface SessionInfo {
  id: string;
  expiresAt: number;
  /** True when this validation renewed the expiry: the cookie should be re-sent. */
  renewed: boolean;
}

export interface ValidatedSession {
  session: SessionInfo;
  principal: Principal;
}

/** 120 bits of randomness as 24 base32 characters. */
function generateSecureRandomString(): string {
  const bytes = new Uint8Array(15);
  crypto.getRandomValues(bytes);
  return encodeBase32LowerCaseNoPadding(bytes);
}

/** SHA-256 of the secret (node:crypto's one-shot native hash: it runs on every request through the gate). */
export function hashSecret(secret: string): Uint8Array {
  return hash("sha256", secret, "buffer");
}

/** Creates a session and returns its token `<id>.<secret>`; only the secret's hash is stored. */
export function createSession(
  db: Db,
  userId: string,
  meta: { ipAddress?: string | null; userAgent?: string | null } = {},
  now = Date.now(),
): { token: string; expiresAt: number } {
  const id = generateSecureRandomString();
  const secret = generateSecureRandomString();
  const expiresAt = now + INACTIVITY_TIMEOUT_MS;
  db.insert(sessions)
    .values({
      id,
      secretHash: encodeHexLowerCase(hashSecret(secret)),
      userId,
      createdAt: now,
      lastVerifiedAt: now,
      expiresAt,
      ipAddress: meta.ipAddress ?? null,
      userAgent: meta.userAgent?.slice(0, 512) ?? null,
    })
    .run();
  return { token: `${id}.${secret}`, expiresAt };
}

/**
 * Prepared once per connection: one indexed lookup returns the session, its user, the names of
 * the system roles they hold and the paths their roles' page permissions grant, both as JSON
 * arrays (never a joined string a crafted role name could split). A system role is a row flagged
 * `is_system`, which no admin form can set: a custom role never counts as one, whatever its name.
 */
function prepareLookup(db: Db) {
  return db
    .select({
      id: sessions.id,
      secretHash: sessions.secretHash,
      createdAt: sessions.createdAt,
      lastVerifiedAt: sessions.lastVerifiedAt,
      expiresAt: sessions.expiresAt,
      userId: users.id,
      email: users.email,
      fullName: users.fullName,
      systemRoles: sql<string>`(select json_group_array(${roles.name}) from ${userRoles}
        join ${roles} on ${roles.id} = ${userRoles.roleId} and ${roles.isSystem} = 1 where ${userRoles.userId} = ${users.id})`,
      grantedPaths: sql<string>`(select json_group_array(distinct ${pages.path}) from ${userRoles}
        join ${rolePermissions} on ${rolePermissions.roleId} = ${userRoles.roleId} and ${rolePermissions.canAccess} = 1
        join ${pages} on ${pages.id} = ${rolePermissions.pageId} where ${userRoles.userId} = ${users.id})`,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(eq(sessions.id, sql.placeholder("id")))
    .prepare();
}

const lookups = new WeakMap<Db, ReturnType<typeof prepareLookup>>();

type LookupRow = NonNullable<ReturnType<ReturnType<typeof prepareLookup>["get"]>>;

function parseToken(token: string): [id: string, secret: string] | null {
  const parts = token.split(".");
  if (parts.length !== 2) return null;
  const [id, secret] = parts as [string, string];
  if (!/^[a-z2-7]{24}$/.test(id) || !/^[a-z2-7]{24}$/.test(secret)) return null;
  return [id, secret];
}

function toPrincipal(row: LookupRow): Principal {
  return {
    userId: row.userId,
    email: row.email,
    name: row.fullName,
    roles: JSON.parse(row.systemRoles) as string[],
    grantedPaths: new Set(JSON.parse(row.grantedPaths) as string[]),
  };
}

interface SessionEntry {
  row: LookupRow;
  hash: Uint8Array;
  principal: Principal;
  /** The gate's cache only: the secret that last matched `hash`, so a repeat skips the SHA-256. */
  verifiedSecret?: Buffer;
}

/** Constant-time check of the secret: against the cached verified secret if any, else its hash. */
function secretMatches(entry: SessionEntry, secret: string): boolean {
  const given = Buffer.from(secret);
  if (entry.verifiedSecret && given.length === entry.verifiedSecret.length && timingSafeEqual(given, entry.verifiedSecret)) return true;
  return constantTimeEqual(hashSecret(secret), entry.hash);
}

function isExpired(row: LookupRow, now: number): boolean {
  return now - row.lastVerifiedAt >= INACTIVITY_TIMEOUT_MS || now - row.createdAt >= config().sessionMaxLifetimeMs;
}

/** The checks shared by both validators: secret, inactivity and absolute expiry, hourly renewal. */
function checkSession(db: Db, entry: SessionEntry, id: string, secret: string, now: number): ValidatedSession | null {
  if (!secretMatches(entry, secret)) return null;
  const { row } = entry;
  if (isExpired(row, now)) {
    invalidateSession(db, id);
    return null;
  }
  let renewed = false;
  if (now - row.lastVerifiedAt >= ACTIVITY_CHECK_INTERVAL_MS) {
    row.lastVerifiedAt = now;
    // Sliding, but never past the absolute lifetime (the cookie's Max-Age follows).
    row.expiresAt = Math.min(now + INACTIVITY_TIMEOUT_MS, row.createdAt + config().sessionMaxLifetimeMs);
    db.update(sessions).set({ lastVerifiedAt: now, expiresAt: row.expiresAt }).where(eq(sessions.id, id)).run();
    renewed = true;
  }
  return { session: { id, expiresAt: row.expiresAt, renewed }, principal: entry.principal };
}

function lookupFor(db: Db) {
  let lookup = lookups.get(db);
  if (!lookup) {
    lookup = prepareLookup(db);
    lookups.set(db, lookup);
  }
  return lookup;
}

/** Returns the session and principal for a token, or null when forged, unknown or expired. */
export function validateSessionToken(db: Db, token: string, now = Date.now()): ValidatedSession | null {
  const parsed = parseToken(token);
  if (!parsed) return null;
  const row = lookupFor(db).get({ id: parsed[0] });
  if (!row) return null;
  return checkSession(db, { row, hash: hexToBytes(row.secretHash), principal: toPrincipal(row) }, parsed[0], parsed[1], now);
}

/**
 * The gate's validator: same rules as validateSessionToken, but the looked-up session is kept
 * in memory until any other connection commits to the database (SQLite's `data_version`
 * changes), so a role, permission or session change by the app, the admin panel or the CLI
 * is seen on the very next request while unchanged data costs one tiny prepared statement.
 */
export function createSessionValidator(db: Db) {
  const dataVersion = db.$client.prepare("PRAGMA data_version").pluck();
  let seen = dataVersion.get();
  const cache = new Map<string, SessionEntry>();
  return function validate(token: string, now = Date.now()): ValidatedSession | null {
    const version = dataVersion.get();
    if (version !== seen) {
      cache.clear();
      seen = version;
    }
    const parsed = parseToken(token);
    if (!parsed) return null;
    const [id, secret] = parsed;
    let entry = cache.get(id);
    if (!entry) {
      const row = lookupFor(db).get({ id });
      if (!row) return null;
      entry = { row, hash: hexToBytes(row.secretHash), principal: toPrincipal(row) };
      if (cache.size >= 10_000) cache.clear();
      cache.set(id, entry);
    }
    const result = checkSession(db, entry, id, secret, now);
    if (result) entry.verifiedSecret ??= Buffer.from(secret);
    else if (isExpired(entry.row, now)) cache.delete(id);
    return result;
  };
}

function hexToBytes(hex: string): Uint8Array {
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return bytes;
}

export function invalidateSession(db: Db, sessionId: string): void {
  db.delete(sessions).where(eq(sessions.id, sessionId)).run();
}

/** Ends every session of a user, optionally keeping one (e.g. the one changing the password). */
export function invalidateUserSessions(db: Db, userId: string, keepSessionId?: string): void {
  const filter = keepSessionId ? sql`${sessions.userId} = ${userId} and ${sessions.id} <> ${keepSessionId}` : eq(sessions.userId, userId);
  db.delete(sessions).where(filter).run();
}

const COOKIE_PREFIX = `${SESSION_COOKIE}=`;

/** Reads the session token from a Cookie header without parsing every cookie. */
export function readSessionCookie(cookieHeader: string | undefined | null): string | null {
  if (!cookieHeader) return null;
  let at = cookieHeader.indexOf(COOKIE_PREFIX);
  // The name must start the header or follow "; " (so "xb1_session=" does not count).
  while (at > 0 && !/[;\s]/.test(cookieHeader[at - 1]!)) at = cookieHeader.indexOf(COOKIE_PREFIX, at + 1);
  if (at === -1) return null;
  const start = at + COOKIE_PREFIX.length;
  const end = cookieHeader.indexOf(";", start);
  const value = (end === -1 ? cookieHeader.slice(start) : cookieHeader.slice(start, end)).trim();
  // Tokens are base32 and a dot: anything needing decoding is not ours.
  return value || null;
}

export function sessionCookieHeader(token: string, expiresAt: number, secure: boolean): string {
  const maxAge = Math.max(0, Math.floor((expiresAt - Date.now()) / 1000));
  return `${SESSION_COOKIE}=${token}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${secure ? "; Secure" : ""}`;
}

export function deleteSessionCookieHeader(secure: boolean): string {
  return `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0${secure ? "; Secure" : ""}`;
}
