import { and, eq, isNull, lt } from "drizzle-orm";
import { users } from "../../../../db/schema/index.ts";
import { writeAuditLog } from "../audit/audit.ts";
import type { Db, Tx } from "../data/db.ts";
import { holdLock } from "../data/dialect.ts";

/**
 * A sign-up whose address is not confirmed within this many days is deleted: an unconfirmed account
 * only claims an address whose mailbox its author may not own, and must not hold it for long.
 */
export const PENDING_ACCOUNT_MAX_AGE_DAYS = 7;
export const PENDING_ACCOUNT_MAX_AGE_MS = PENDING_ACCOUNT_MAX_AGE_DAYS * 24 * 60 * 60 * 1000;
/** How often the portal looks for expired sign-ups (besides once at start). */
export const PENDING_PURGE_INTERVAL_MS = 60 * 60 * 1000;
/** Accounts deleted per transaction: each batch is a short write, so requests interleave with a big purge. */
const PURGE_BATCH = 200;

type PendingAccount = { id: string; email: string; createdAt: number };
export type PendingRemovalReason = "expired" | "address_claimed_by_sso";

/** Deletes one still-unconfirmed account and records it in the audit chain, inside the caller's transaction. */
export async function removePendingAccount(tx: Tx, account: PendingAccount, reason: PendingRemovalReason): Promise<boolean> {
  const deleted = await tx
    .delete(users)
    .where(and(eq(users.id, account.id), isNull(users.emailConfirmedAt)))
    .returning({ id: users.id });
  if (deleted.length === 0) return false;
  await writeAuditLog(tx, {
    userId: account.id,
    actionType: "user_pending_purged",
    result: "success",
    details: {
      email: account.email,
      reason,
      created_at: new Date(account.createdAt).toISOString(),
      max_age_days: PENDING_ACCOUNT_MAX_AGE_DAYS,
    },
  });
  return true;
}

/** Deletes every sign-up left unconfirmed for longer than PENDING_ACCOUNT_MAX_AGE_DAYS, oldest first; returns how many went. */
export async function purgeExpiredPendingAccounts(db: Db, now = Date.now()): Promise<number> {
  const cutoff = now - PENDING_ACCOUNT_MAX_AGE_MS;
  let purged = 0;
  for (;;) {
    const batch = await db.transaction(async (tx) => {
      // A corporate sign-in confirming one of these, or a link being followed, finishes first or finds it gone.
      await holdLock(tx, "accounts");
      const expired = await tx
        .select({ id: users.id, email: users.email, createdAt: users.createdAt })
        .from(users)
        .where(and(isNull(users.emailConfirmedAt), lt(users.createdAt, cutoff)))
        .orderBy(users.createdAt)
        .limit(PURGE_BATCH);
      let removed = 0;
      for (const account of expired) if (await removePendingAccount(tx, account, "expired")) removed += 1;
      return { found: expired.length, removed };
    });
    purged += batch.removed;
    if (batch.found < PURGE_BATCH || batch.removed === 0) return purged;
    await new Promise((resolve) => setImmediate(resolve));
  }
}
