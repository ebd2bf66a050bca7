import { eq } from "drizzle-orm";
import { auditLogs } from "../../../../db/schema/index.ts";
import type { AuditActionType, AuditResult } from "../../audit/actions.ts";
import type { Db, Tx } from "../data/db.ts";
import { logger } from "../platform/logger.ts";
import { chainHash, previousHashBefore } from "./chain.ts";
import { config } from "../config/config.ts";
import { maskIpAddress } from "../platform/ip-mask.ts";
import { holdLock, incrementJsonCount } from "../data/dialect.ts";

/** Who sent a request, as audit rows record it. */
export interface RequestMeta {
  ipAddress?: string | null;
  userAgent?: string | null;
}

export interface AuditEntry extends RequestMeta {
  userId?: string | null;
  actionType: AuditActionType;
  result: AuditResult;
  details?: Record<string, unknown> | null;
}

/**
 * Writes one audit row, chained to the previous one (see audit-chain.ts). Pass the transaction
 * handle to write it together with the change it records. The previous hash is read inside the
 * write transaction (immediate, so other connections wait): appends are serialised. A failed
 * write is only logged and never breaks the caller.
 */
export async function writeAuditLog(db: Db | Tx, entry: AuditEntry): Promise<number | null> {
  try {
    return await db.transaction(async (tx) => {
      await holdLock(tx, "audit-chain");
      const values = {
        createdAt: Date.now(),
        userId: entry.userId ?? null,
        actionType: entry.actionType,
        result: entry.result,
        actionDetails: entry.details ? JSON.stringify(entry.details) : null,
        ipAddress: config().auditIpMask ? maskIpAddress(entry.ipAddress) : (entry.ipAddress ?? null),
        userAgent: entry.userAgent?.slice(0, 512) ?? null,
      };
      const [{ id }] = (await tx.insert(auditLogs).values(values).returning({ id: auditLogs.id })) as [{ id: number }];
      const hash = chainHash(await previousHashBefore(tx, id), { id, ...values });
      await tx.update(auditLogs).set({ hash }).where(eq(auditLogs.id, id));
      return id;
    });
  } catch (error) {
    logger().error({ err: error, actionType: entry.actionType }, "falha ao gravar registro de auditoria");
    return null;
  }
}

/** Adds one to the `count` in a row's details (a repeat of what it records); false when the row is gone. */
export async function incrementAuditCount(db: Pick<Db, "update">, rowId: number): Promise<boolean> {
  try {
    const updated = await db
      .update(auditLogs)
      .set({ actionDetails: incrementJsonCount(auditLogs.actionDetails) })
      .where(eq(auditLogs.id, rowId))
      .returning({ id: auditLogs.id });
    return updated.length === 1;
  } catch (error) {
    logger().error({ err: error }, "falha ao atualizar contagem de auditoria");
    return false;
  }
}
