/** The audit streaming tests' questions to the database and the receiver (audit-stream*.test.ts). */
import { asc, desc, eq } from "drizzle-orm";
import { expect } from "vitest";
import { auditDestinations, auditLogs } from "../../db/schema/index";
import type { AuditReceiver } from "./audit-receiver";
import type { RunningServer } from "./server";

/** The newest audit row's id (0 when there is none). */
export async function lastAuditId(server: RunningServer): Promise<number> {
  const [row] = await server.db.select({ id: auditLogs.id }).from(auditLogs).orderBy(desc(auditLogs.id)).limit(1);
  return row?.id ?? 0;
}

/** Every audit row's id, in chain order. */
export async function allAuditIds(server: RunningServer): Promise<number[]> {
  return (await server.db.select({ id: auditLogs.id }).from(auditLogs).orderBy(asc(auditLogs.id))).map((row) => row.id);
}

/**
 * Waits until the receiver has taken the newest audit row and the webhook's cursor stands on it. The cursor
 * too: after a resend the receiver already holds the newest id from the first delivery while the cursor is
 * still going through the log again (a test that read the cursor then saw it move under it).
 */
export async function deliveredToHead(receiver: AuditReceiver, server: RunningServer, timeout = 15_000): Promise<void> {
  await expect
    .poll(
      async () => {
        const head = await lastAuditId(server);
        const [cursor] = await server.db
          .select({ id: auditDestinations.deliveredId })
          .from(auditDestinations)
          .where(eq(auditDestinations.name, "webhook"));
        return Math.max(0, ...receiver.accepted().map((event) => event.id)) >= head && (cursor?.id ?? 0) >= head;
      },
      { timeout, interval: 50 },
    )
    .toBe(true);
}
