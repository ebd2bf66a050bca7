import { eq, sql } from "drizzle-orm";
import { auditLogs } from "../../../db/schema/index.ts";
import type { AuditActionType, AuditResult } from "../audit-actions.ts";
import type { Db } from "./db.ts";
import { logger } from "./logger.ts";

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
 * Writes one audit row. Pass the transaction handle to write it together with the change it
 * records. A failed write is only logged and never breaks the caller.
 */
export function writeAuditLog(db: Pick<Db, "insert">, entry: AuditEntry): number | null {
  try {
    const inserted = db
      .insert(auditLogs)
      .values({
        userId: entry.userId ?? null,
        actionType: entry.actionType,
        result: entry.result,
        actionDetails: entry.details ? JSON.stringify(entry.details) : null,
        ipAddress: entry.ipAddress ?? null,
        userAgent: entry.userAgent?.slice(0, 512) ?? null,
      })
      .run();
    return Number(inserted.lastInsertRowid);
  } catch (error) {
    logger().error({ err: error, actionType: entry.actionType }, "falha ao gravar registro de auditoria");
    return null;
  }
}

/** Adds one to the `count` in a row's details (a repeat of what it records); false when the row is gone. */
export function incrementAuditCount(db: Pick<Db, "update">, rowId: number): boolean {
  try {
    const updated = db
      .update(auditLogs)
      .set({
        actionDetails: sql`json_set(coalesce(${auditLogs.actionDetails}, '{}'), '$.count', coalesce(json_extract(${auditLogs.actionDetails}, '$.count'), 1) + 1)`,
      })
      .where(eq(auditLogs.id, rowId))
      .run();
    return updated.changes === 1;
  } catch (error) {
    logger().error({ err: error }, "falha ao atualizar contagem de auditoria");
    return false;
  }
}
