import { eq } from "drizzle-orm";
import { auditLogs, sessions, users } from "../../db/schema/index";
import type { Db } from "../../src/lib/server/data/db";
import { returnToPortal, signInAtProvider } from "./oidc-browser";
import { TEST_CLIENT } from "./oidc-provider";

/** The portal's OIDC settings for a test provider; `grupo-ti` maps to admin, as a real deployment would. */
export function ssoEnv(issuer: string): Record<string, string> {
  return {
    OIDC_ISSUER: issuer,
    OIDC_CLIENT_ID: TEST_CLIENT.id,
    OIDC_CLIENT_SECRET: TEST_CLIENT.secret,
    OIDC_ROLE_MAP: "grupo-ti:admin,lideres:lider",
  };
}

/** Clicks the corporate button, signs in at the provider as `login` and follows the way back; the portal's answer. */
export async function signInThroughProvider(portalUrl: string, login: string, next = "/") {
  const roundTrip = await signInAtProvider(portalUrl, login, next);
  const response = await returnToPortal(roundTrip);
  return { response, roundTrip, location: response.headers.get("location"), token: roundTrip.portal.get("b1_session") };
}

/** Whose session a `b1_session` token opened (the id half of `<id>.<secret>`). */
export async function sessionOwner(db: Db, token: string | undefined): Promise<string | null> {
  if (!token) return null;
  const row = (
    await db
      .select({ userId: sessions.userId })
      .from(sessions)
      .where(eq(sessions.id, token.split(".")[0]!))
  )[0];
  return row?.userId ?? null;
}

export async function findUser(db: Db, email: string) {
  return (await db.select().from(users).where(eq(users.email, email)))[0] ?? null;
}

/** Audit rows of one action, details parsed. */
export async function auditRows(db: Db, action: string) {
  return (await db.select().from(auditLogs).where(eq(auditLogs.actionType, action))).map((row) => ({
    ...row,
    details: JSON.parse(row.actionDetails ?? "null") as Record<string, unknown> | null,
  }));
}

/** The /auth page a refused corporate sign-in lands on, as the browser gets it (the message is in its inline script). */
export async function refusalPage(portalUrl: string, location: string | null): Promise<string> {
  const response = await fetch(new URL(location ?? "/", portalUrl));
  if (response.status !== 200) throw new Error(`${location} respondeu ${response.status}`);
  return await response.text();
}
