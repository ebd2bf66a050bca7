import { auditLogs } from "../../../db/schema/index.ts";
import type { AuditResult } from "../audit-actions.ts";
import type { Db } from "./db.ts";
import { logger } from "./logger.ts";

export interface AuditEntry {
  userId?: string | null;
  actionType: string;
  result: AuditResult;
  details?: Record<string, unknown> | null;
  ipAddress?: string | null;
  userAgent?: string | null;
}

/**
 * Writes one audit row. Pass the transaction handle to write it together with the change it
 * records. A failed write is only logged and never breaks the caller.
 */
export function writeAuditLog(db: Pick<Db, "insert">, entry: AuditEntry): void {
  try {
    db.insert(auditLogs)
      .values({
        userId: entry.userId ?? null,
        actionType: entry.actionType,
        result: entry.result,
        actionDetails: entry.details ? JSON.stringify(entry.details) : null,
        ipAddress: entry.ipAddress ?? null,
        userAgent: entry.userAgent?.slice(0, 512) ?? null,
      })
      .run();
  } catch (error) {
    logger().error({ err: error, actionType: entry.actionType }, "falha ao gravar registro de auditoria");
  }
}
