import { asc, inArray } from "drizzle-orm";
import { auditLogs } from "../../../../db/schema/index.ts";
import type { Db } from "../data/db.ts";
import { writeChainCheckpoint } from "./chain.ts";
import { holdLock } from "../data/dialect.ts";

const DAY_MS = 24 * 60 * 60 * 1000;
/** Rows deleted per statement: each batch is a short write, so requests interleave with a big prune. */
export const PRUNE_BATCH = 500;

/**
 * Deletes audit rows older than `retentionDays`, oldest first, in batches of `batchSize`,
 * yielding to the event loop between batches. Returns how many rows went.
 */
export async function pruneAuditLogs(db: Db, retentionDays: number, now = Date.now(), batchSize = PRUNE_BATCH): Promise<number> {
  const cutoff = now - retentionDays * DAY_MS;
  let deleted = 0;
  for (;;) {
    const changes = await db.transaction(async (tx) => {
      // Appends and other instances' prunes wait: checkpoints are written in chain order.
      await holdLock(tx, "audit-chain");
      // The oldest rows in chain (id) order, up to the first one still inside the retention
      // period: what goes is always a prefix of the chain, so the rest still verifies.
      const head = await tx
        .select({ id: auditLogs.id, createdAt: auditLogs.createdAt })
        .from(auditLogs)
        .orderBy(asc(auditLogs.id))
        .limit(batchSize);
      const young = head.findIndex((row) => row.createdAt >= cutoff);
      const ids = (young === -1 ? head : head.slice(0, young)).map((row) => row.id);
      if (ids.length === 0) return 0;
      // The rest of the chain starts from the last pruned row's hash.
      await writeChainCheckpoint(tx, ids.at(-1)!);
      return (await tx.delete(auditLogs).where(inArray(auditLogs.id, ids)).returning({ id: auditLogs.id })).length;
    });
    deleted += changes;
    if (changes < batchSize) return deleted;
    await new Promise((resolve) => setImmediate(resolve));
  }
}
