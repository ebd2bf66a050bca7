import { and, eq, gt } from "drizzle-orm";
import { sessions } from "../../../../db/schema/index.ts";
import type { Db } from "../data/db.ts";

/** How long after a sign-in the actions that could lock the owner out of the account stay open. */
export const RECENT_SIGN_IN_MS = 10 * 60 * 1000;

export const SIGN_IN_AGAIN_CODE = "reauthentication_required";
export const SIGN_IN_AGAIN_MESSAGE =
  "Por segurança, esta ação exige um login feito há menos de 10 minutos. Saia, entre novamente e repita a ação.";

/**
 * True when this session of the user was opened (password, password and code, or SSO) within
 * RECENT_SIGN_IN_MS. Every credential opens a new session and none refreshes an old one, so the
 * session's creation is when it last presented one: a stolen cookie alone does not pass.
 */
export async function signedInRecently(db: Db, userId: string, sessionId: string | null, now = Date.now()): Promise<boolean> {
  if (!sessionId) return false;
  const rows = await db
    .select({ id: sessions.id })
    .from(sessions)
    .where(and(eq(sessions.id, sessionId), eq(sessions.userId, userId), gt(sessions.createdAt, now - RECENT_SIGN_IN_MS)));
  return rows.length === 1;
}
