/**
 * Sessions (the Lucia guide's scheme): tokens, validation with inactivity and lifetime limits, and how
 * each session was authenticated (this file); the per-process cache kept exact across instances by the
 * change counter (cache.ts); the cookie (cookie.ts); 'Minhas sessões' (my-sessions.ts), the
 * recent-sign-in rule for sensitive changes (recent-sign-in.ts) and the browsers a full sign-in
 * leaves remembered (remembered-device.ts).
 */
import { decodeHex, encodeBase32LowerCaseNoPadding, encodeHexLowerCase } from "@oslojs/encoding";
import { and, eq, isNull, ne, sql } from "drizzle-orm";
import { roles, sessions, userRoles, users, rolePermissions, pages, pageAudience } from "../../../../db/schema/index.ts";
import { twoFactorSecrets } from "../../../../db/schema/index.ts";
import type { Principal } from "../../routes.ts";
import type { AuthMethod } from "../../auth/two-factor-policy.ts";
import { writeAuditLog, type AuditEntry } from "../audit/audit.ts";
import type { Db, Tx } from "../data/db.ts";
import { existsFlag, jsonArrayOf } from "../data/dialect.ts";
import { config } from "../config/config.ts";
import { constantTimeEqual, sha256 } from "../platform/hashing.ts";
import { rememberDevice, type DeviceToken } from "./remembered-device.ts";

/** A session ends after this much inactivity. */
export const INACTIVITY_TIMEOUT_MS = 7 * 24 * 60 * 60 * 1000;
/** `last_verified_at` is written at most this often (sliding expiry without a write per request). */
export const ACTIVITY_CHECK_INTERVAL_MS = 60 * 60 * 1000;

export interface SessionInfo {
  id: string;
  expiresAt: number;
  /** How this session was opened; the two-factor requirement reads this, never the account. */
  authMethod: AuthMethod;
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

/** SHA-256 of the secret: only this is stored. */
export function hashSecret(secret: string): Uint8Array {
  return sha256(secret);
}

/**
 * Creates a session and returns its token `<id>.<secret>`; only the secret's hash is stored.
 * `authMethod` defaults to the weakest, so a caller that forgets it never grants more.
 */
export async function createSession(
  db: Db | Tx,
  userId: string,
  meta: { ipAddress?: string | null; userAgent?: string | null; authMethod?: AuthMethod } = {},
  now = Date.now(),
): Promise<{ token: string; expiresAt: number }> {
  const id = generateSecureRandomString();
  const secret = generateSecureRandomString();
  const expiresAt = now + INACTIVITY_TIMEOUT_MS;
  await db.insert(sessions).values({
    id,
    secretHash: encodeHexLowerCase(hashSecret(secret)),
    userId,
    createdAt: now,
    lastVerifiedAt: now,
    expiresAt,
    ipAddress: meta.ipAddress ?? null,
    userAgent: meta.userAgent?.slice(0, 512) ?? null,
    authMethod: meta.authMethod ?? "password",
  });
  return { token: `${id}.${secret}`, expiresAt };
}

/** What a completed sign-in hands the browser: the session and the token that remembers this device. */
export interface SignInSession {
  token: string;
  expiresAt: number;
  device: DeviceToken;
}

/**
 * A sign-in's session and remembered device, written in one transaction with the audit rows that
 * record it: a session whose row cannot be written never reaches a browser (the sign-in fails instead).
 */
export async function createAuditedSession(
  db: Db | Tx,
  userId: string,
  meta: Parameters<typeof createSession>[2],
  rows: readonly AuditEntry[],
  now = Date.now(),
): Promise<SignInSession> {
  return db.transaction(async (tx) => {
    const session = await createSession(tx, userId, meta, now);
    const device = await rememberDevice(tx, userId, now);
    for (const row of rows) await writeAuditLog(tx, row);
    return { ...session, device };
  });
}

/**
 * One indexed lookup returns the session, its user, the names of the system roles they hold,
 * the paths their roles' page permissions grant, whether all their roles are limited, the pages the
 * admin panel restricted and those of them the user's roles are in the audience of (arrays as JSON,
 * never a joined string a crafted role name could split). A system role is a row flagged `is_system`, which no admin form
 * can set: a custom role never counts as one, whatever its name.
 */
function prepareLookup(db: Db) {
  return (
    db
      .select({
        id: sessions.id,
        secretHash: sessions.secretHash,
        createdAt: sessions.createdAt,
        lastVerifiedAt: sessions.lastVerifiedAt,
        expiresAt: sessions.expiresAt,
        authMethod: sessions.authMethod,
        userId: users.id,
        email: users.email,
        fullName: users.fullName,
        systemRoles: jsonArrayOf({
          value: sql`${roles.name}`,
          from: sql`from ${userRoles} join ${roles} on ${roles.id} = ${userRoles.roleId} and ${eq(roles.isSystem, true)}
          where ${userRoles.userId} = ${users.id}`,
        }),
        grantedPaths: jsonArrayOf({
          distinct: true,
          value: sql`${pages.path}`,
          from: sql`from ${userRoles} join ${rolePermissions} on ${rolePermissions.roleId} = ${userRoles.roleId} and ${eq(rolePermissions.canAccess, true)}
          join ${pages} on ${pages.id} = ${rolePermissions.pageId} where ${userRoles.userId} = ${users.id}`,
        }),
        holdsRole: existsFlag(sql`select 1 from ${userRoles} where ${userRoles.userId} = ${users.id}`),
        holdsUnlimitedRole: existsFlag(
          sql`select 1 from ${userRoles} join ${roles} on ${roles.id} = ${userRoles.roleId} and ${eq(roles.accessLimited, false)}
          where ${userRoles.userId} = ${users.id}`,
        ),
        overridden: jsonArrayOf({
          value: sql`${pages.path}`,
          from: sql`from ${pages} where ${eq(pages.audienceOverride, true)}`,
        }),
        audiencePaths: jsonArrayOf({
          distinct: true,
          value: sql`${pages.path}`,
          from: sql`from ${userRoles} join ${pageAudience} on ${pageAudience.roleId} = ${userRoles.roleId}
          join ${pages} on ${pages.id} = ${pageAudience.pageId} and ${eq(pages.audienceOverride, true)} where ${userRoles.userId} = ${users.id}`,
        }),
        twoFactorEnrolled: existsFlag(
          sql`select 1 from ${twoFactorSecrets} where ${twoFactorSecrets.userId} = ${users.id} and ${twoFactorSecrets.confirmedAt} is not null`,
        ),
      })
      .from(sessions)
      // A deactivated account's session is unknown, whatever row a sign-in racing the deactivation left.
      .innerJoin(users, and(eq(users.id, sessions.userId), isNull(users.deactivatedAt)))
      .where(eq(sessions.id, sql.placeholder("id")))
      // Unnamed (""): a named statement lives on one server connection, and through PgBouncer in
      // transaction pooling the next lookup may run on another ("prepared statement does not exist").
      .prepare("")
  );
}

const lookups = new WeakMap<Db, ReturnType<typeof prepareLookup>>();

function lookupFor(db: Db) {
  let lookup = lookups.get(db);
  if (!lookup) {
    lookup = prepareLookup(db);
    lookups.set(db, lookup);
  }
  return lookup;
}

export type LookupRow = Awaited<ReturnType<ReturnType<typeof prepareLookup>["execute"]>>[number];

/** Splits `<id>.<secret>`; null unless both halves are 24 base32 characters. */
export function parseToken(token: string): [id: string, secret: string] | null {
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
    roles: row.systemRoles,
    grantedPaths: new Set(row.grantedPaths),
    limited: row.holdsRole && !row.holdsUnlimitedRole,
    overridden: new Set(row.overridden),
    audiencePaths: new Set(row.audiencePaths),
  };
}

/** A looked-up session: its row, the stored hash decoded, and the principal built from it. */
export interface SessionEntry {
  row: LookupRow;
  hash: Uint8Array;
  principal: Principal;
  /** The gate's cache only: the secret that last matched `hash`, so a repeat skips the SHA-256. */
  verifiedSecret?: Buffer;
}

/** Constant-time check of the secret: against the cached verified secret if any, else its hash. */
function secretMatches(entry: SessionEntry, secret: string): boolean {
  const given = Buffer.from(secret);
  if (entry.verifiedSecret && constantTimeEqual(given, entry.verifiedSecret)) return true;
  return constantTimeEqual(hashSecret(secret), entry.hash);
}

export function isExpired(row: LookupRow, now: number): boolean {
  return now - row.lastVerifiedAt >= INACTIVITY_TIMEOUT_MS || now - row.createdAt >= config().sessionMaxLifetimeMs;
}

/**
 * With two-factor on, a session opened with the password alone does not outlive the account's
 * enrolment: enrolment ends such sessions, and this also ends one that a sign-in racing the
 * enrolment wrote just after it (or one from before sessions recorded their method).
 */
function weakerThanAccount(row: LookupRow): boolean {
  return row.authMethod === "password" && row.twoFactorEnrolled && config().twoFactor.key !== null;
}

/**
 * The checks shared by both validators: secret, inactivity and absolute expiry, strength, hourly
 * renewal. Answers without a promise when no write is needed (the cached gate's usual request).
 */
export function checkSession(
  db: Db,
  entry: SessionEntry,
  id: string,
  secret: string,
  now: number,
): ValidatedSession | null | Promise<ValidatedSession | null> {
  if (!secretMatches(entry, secret)) return null;
  const { row } = entry;
  if (isExpired(row, now) || weakerThanAccount(row)) return invalidateSession(db, id).then(() => null);
  if (now - row.lastVerifiedAt >= ACTIVITY_CHECK_INTERVAL_MS) return renewSession(db, entry, id, now);
  return { session: { id, expiresAt: row.expiresAt, authMethod: row.authMethod, renewed: false }, principal: entry.principal };
}

async function renewSession(db: Db, entry: SessionEntry, id: string, now: number): Promise<ValidatedSession> {
  const { row } = entry;
  row.lastVerifiedAt = now;
  // Sliding, but never past the absolute lifetime (the cookie's Max-Age follows).
  row.expiresAt = Math.min(now + INACTIVITY_TIMEOUT_MS, row.createdAt + config().sessionMaxLifetimeMs);
  await db.update(sessions).set({ lastVerifiedAt: now, expiresAt: row.expiresAt }).where(eq(sessions.id, id));
  return { session: { id, expiresAt: row.expiresAt, authMethod: row.authMethod, renewed: true }, principal: entry.principal };
}

/** Reads a session by id (one indexed statement), or undefined when unknown. */
export async function lookupSession(db: Db, id: string): Promise<SessionEntry | undefined> {
  const [row] = await lookupFor(db).execute({ id });
  return row && { row, hash: decodeHex(row.secretHash), principal: toPrincipal(row) };
}

/** Returns the session and principal for a token, or null when forged, unknown or expired. */
export async function validateSessionToken(db: Db, token: string, now = Date.now()): Promise<ValidatedSession | null> {
  const parsed = parseToken(token);
  if (!parsed) return null;
  const entry = await lookupSession(db, parsed[0]);
  return entry ? await checkSession(db, entry, parsed[0], parsed[1], now) : null;
}

export async function invalidateSession(db: Db, sessionId: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.id, sessionId));
}

/** Ends every session of a user, optionally keeping one (e.g. the one changing the password); returns how many ended. */
export async function invalidateUserSessions(db: Db, userId: string, keepSessionId?: string | null): Promise<number> {
  const filter = keepSessionId ? and(eq(sessions.userId, userId), ne(sessions.id, keepSessionId)) : eq(sessions.userId, userId);
  return (await db.delete(sessions).where(filter).returning({ id: sessions.id })).length;
}

/** This session of the user just presented a second-factor code: it passes the two-factor requirement from now on. */
export async function recordSecondFactor(db: Db, sessionId: string, userId: string): Promise<void> {
  await db
    .update(sessions)
    .set({ authMethod: "two_factor" })
    .where(and(eq(sessions.id, sessionId), eq(sessions.userId, userId)));
}

// Callers written before the cookie code moved to its own module keep working.
export { SESSION_COOKIE, deleteSessionCookieHeader, readSessionCookie, sessionCookieHeader } from "./cookie.ts";
