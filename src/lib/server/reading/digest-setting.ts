/** A person's choice about the weekly required-reading reminder (account page), with its audit row. */
import { and, eq, ne } from "drizzle-orm";
import { users } from "../../../../db/schema/index.ts";
import { writeAuditLog, type RequestMeta } from "../audit/audit.ts";
import type { Db } from "../data/db.ts";

/** Whether the person receives the weekly reminder (true unless they unticked it). */
export async function readsDigest(db: Db, userId: string): Promise<boolean> {
  const [row] = await db.select({ optOut: users.readingDigestOptOut }).from(users).where(eq(users.id, userId));
  return !(row?.optOut ?? false);
}

/** Sets the choice; the change and its audit row are one transaction, and setting the same value again writes nothing. */
export async function setDigestChoice(db: Db, userId: string, receive: boolean, meta: RequestMeta): Promise<void> {
  await db.transaction(async (tx) => {
    const changed = await tx
      .update(users)
      .set({ readingDigestOptOut: !receive })
      .where(and(eq(users.id, userId), ne(users.readingDigestOptOut, !receive)))
      .returning({ id: users.id });
    if (!changed.length) return;
    await writeAuditLog(tx, {
      userId,
      actionType: "reading_digest_opt_out",
      result: "success",
      details: { lembreteSemanal: receive ? "ativado" : "desativado" },
      ...meta,
    });
  });
}
