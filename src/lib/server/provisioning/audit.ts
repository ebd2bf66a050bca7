import { writeAuditLog, writeAuditLogs, type RequestMeta } from "../audit/audit.ts";
import type { Tx } from "../data/db.ts";
import type { AuditActionType } from "../../audit/actions.ts";

/** Marks a row as done by the company directory: the viewer shows it as such instead of 'Sistema'. */
export const DIRECTORY_ACTOR = "directory";

/**
 * One audit row of a change the directory made, in the change's transaction. The row has no user
 * (the actor is the directory, not an account); the account changed is named in the details, so the
 * row outlives the account's deletion.
 */
export async function auditDirectoryChange(
  tx: Tx,
  actionType: AuditActionType,
  details: Record<string, unknown>,
  meta: RequestMeta,
): Promise<void> {
  // `actor` first: the viewer recognises a directory row by the start of its details text.
  await writeAuditLog(tx, { actionType, result: "success", details: { actor: DIRECTORY_ACTOR, ...details }, ...meta });
}

/** Several directory changes of one transaction, chained in the order given under one take of the chain lock. */
export async function auditDirectoryChanges(
  tx: Tx,
  changes: readonly (readonly [actionType: AuditActionType, details: Record<string, unknown>])[],
  meta: RequestMeta,
): Promise<void> {
  await writeAuditLogs(
    tx,
    changes.map(([actionType, details]) => ({
      actionType,
      result: "success" as const,
      details: { actor: DIRECTORY_ACTOR, ...details },
      ...meta,
    })),
  );
}
