import { asc, inArray } from "drizzle-orm";
import { auditLogs } from "../../../../db/schema/index.ts";
import type { Db } from "../data/db.ts";
import { latestCheckpoint, prunedPoint, writeChainCheckpoint } from "./chain.ts";
import { moveHeadAfterPrune } from "./head.ts";
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
      const oldest = await tx.select().from(auditLogs).orderBy(asc(auditLogs.id)).limit(batchSize);
      const young = oldest.findIndex((row) => row.createdAt >= cutoff);
      const pruned = young === -1 ? oldest : oldest.slice(0, young);
      if (pruned.length === 0) return 0;
      const resumed = prunedPoint(await latestCheckpoint(tx));
      // The rest of the chain starts from the last pruned row's hash.
      await writeChainCheckpoint(tx, pruned.at(-1)!);
      const ids = pruned.map((row) => row.id);
      const deleted = (await tx.delete(auditLogs).where(inArray(auditLogs.id, ids)).returning({ id: auditLogs.id })).length;
      await moveHeadAfterPrune(tx, resumed, pruned);
      return deleted;
    });
    deleted += changes;
    if (changes < batchSize) return deleted;
    await new Promise((resolve) => setImmediate(resolve));
  }
}
