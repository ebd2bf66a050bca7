import { and, eq } from "drizzle-orm";
import { users } from "../../../../../db/schema/index.ts";
import { writeAuditLog, type RequestMeta } from "../../audit/audit.ts";
import type { Tx } from "../../data/db.ts";
import { holdLock } from "../../data/dialect.ts";

/**
 * The second factor of a challenge begun by corporate sign-in was right: the identity it carries is
 * linked to the account now, in the session's transaction, unless the account got linked to
 * another identity or another account took this one meanwhile (audited as a conflict; the session
 * still opens, the code having proved the account's owner).
 */
export async function linkAfterSecondFactor(
  tx: Tx,
  userId: string,
  identity: { issuer: string; subject: string },
  secondFactor: string,
  meta: RequestMeta,
): Promise<void> {
  await holdLock(tx, "accounts");
  const [user] = await tx.select().from(users).where(eq(users.id, userId));
  if (!user) return;
  const [taken] = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.oidcIssuer, identity.issuer), eq(users.oidcSubject, identity.subject)));
  const base = { email: user.email, issuer: identity.issuer, subject: identity.subject };
  if (user.oidcIssuer !== null || (taken && taken.id !== userId)) {
    if (user.oidcIssuer === identity.issuer && user.oidcSubject === identity.subject) return;
    await writeAuditLog(tx, {
      userId,
      actionType: "sso_identity_conflict",
      result: "failure",
      details: { ...base, error: user.oidcIssuer !== null ? "linked_to_other_identity" : "identity_held_by_other_account" },
      ...meta,
    });
    return;
  }
  await tx.update(users).set({ oidcIssuer: identity.issuer, oidcSubject: identity.subject }).where(eq(users.id, userId));
  await writeAuditLog(tx, { userId, actionType: "sso_identity_linked", result: "success", details: { ...base, secondFactor }, ...meta });
}
