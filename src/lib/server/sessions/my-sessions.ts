import { encodeHexLowerCase } from "@oslojs/encoding";
import { and, desc, eq, ne } from "drizzle-orm";
import UAParser from "ua-parser-js";
import { sessions } from "../../../../db/schema/index.ts";
import { writeAuditLog, type RequestMeta } from "../audit/audit.ts";
import type { Db } from "../data/db.ts";
import { sha256 } from "../platform/hashing.ts";
import { signedInRecently } from "./recent-sign-in.ts";
import { forgetDevices } from "./remembered-device.ts";
import type { SessionView } from "../../auth/session-view.ts";

export type { SessionView };

function sessionHandle(sessionId: string): string {
  return encodeHexLowerCase(sha256(`sessao:${sessionId}`)).slice(0, 32);
}

/** Browser and system of a user agent, with their major versions unless `withVersions` is false. */
export function describeAgent(userAgent: string | null, withVersions = true): { browser: string; system: string } {
  const parsed = new UAParser(userAgent ?? "").getResult();
  const join = (name?: string, version?: string) =>
    name ? [name, withVersions ? version?.split(".")[0] : undefined].filter(Boolean).join(" ") : "Desconhecido";
  return { browser: join(parsed.browser.name, parsed.browser.version), system: join(parsed.os.name, parsed.os.version) };
}

async function userSessions(db: Db, userId: string) {
  return await db.select().from(sessions).where(eq(sessions.userId, userId)).orderBy(desc(sessions.lastVerifiedAt));
}

/** The user's sessions, most recently used first, the one making the request marked. */
export async function listMySessions(db: Db, userId: string, currentSessionId: string | null, now = Date.now()): Promise<SessionView[]> {
  return (await userSessions(db, userId))
    .filter((row) => row.expiresAt > now)
    .map((row) => ({
      handle: sessionHandle(row.id),
      ...describeAgent(row.userAgent),
      ipAddress: row.ipAddress,
      signedInAt: row.createdAt,
      lastUsedAt: row.lastVerifiedAt,
      current: row.id === currentSessionId,
    }));
}

export interface Actor extends RequestMeta {
  userId: string;
}

/** Ends one of the user's own sessions by its handle; false when it is not theirs (or already gone). */
export async function endMySession(db: Db, actor: Actor, handle: string): Promise<boolean> {
  const target = (await userSessions(db, actor.userId)).find((row) => sessionHandle(row.id) === handle);
  if (!target) return false;
  return db.transaction(async (tx) => {
    await tx.delete(sessions).where(and(eq(sessions.id, target.id), eq(sessions.userId, actor.userId)));
    await writeAuditLog(tx, { ...actor, actionType: "session_ended", result: "success", details: { count: 1, ended: "one" } });
    return true;
  });
}

/**
 * Ends every session of the user except the current one and returns how many ended; null (nothing
 * ended) unless the current session signed in recently, so a stolen cookie cannot shut the owner out.
 */
export async function endMyOtherSessions(db: Db, actor: Actor, currentSessionId: string, now = Date.now()): Promise<number | null> {
  return db.transaction(async (tx) => {
    if (!(await signedInRecently(tx, actor.userId, currentSessionId, now))) return null;
    const ended = await tx
      .delete(sessions)
      .where(and(eq(sessions.userId, actor.userId), ne(sessions.id, currentSessionId)))
      .returning({ id: sessions.id })
      .then((rows) => rows.length);
    await writeAuditLog(tx, { ...actor, actionType: "session_ended", result: "success", details: { count: ended, ended: "others" } });
    return ended;
  });
}

/** An administrator ends every session of a user (they must sign in again everywhere) and forgets their remembered devices. */
export async function endAllSessionsOfUser(db: Db, actor: Actor, target: { userId: string; email: string }): Promise<number> {
  return db.transaction(async (tx) => {
    const ended = (await tx.delete(sessions).where(eq(sessions.userId, target.userId)).returning({ id: sessions.id })).length;
    await forgetDevices(tx, target.userId);
    await writeAuditLog(tx, {
      ...actor,
      actionType: "admin_sessions_ended",
      result: "success",
      details: { targetUserId: target.userId, email: target.email, count: ended },
    });
    return ended;
  });
}
