import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/** Written by retention pruning: the hash of the last pruned row, so the rows left still verify. */
export const auditChainCheckpoints = sqliteTable("audit_chain_checkpoints", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  /** The id of the last row pruned; the chain resumes at the next row. */
  lastPrunedId: integer("last_pruned_id", { mode: "number" }).notNull(),
  lastPrunedHash: text("last_pruned_hash").notNull(),
  createdAt: integer("created_at", { mode: "number" }).notNull(),
});
