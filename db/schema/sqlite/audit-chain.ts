import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/** Written by retention pruning: the hash of the last pruned row, so the rows left still verify. */
export const auditChainCheckpoints = sqliteTable("audit_chain_checkpoints", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  /** The id of the last row pruned; the chain resumes at the next row. */
  lastPrunedId: integer("last_pruned_id", { mode: "number" }).notNull(),
  lastPrunedHash: text("last_pruned_hash").notNull(),
  createdAt: integer("created_at", { mode: "number" }).notNull(),
});

/**
 * The chain's head as the portal last left it (one row, id 1): the last row, where pruning
 * resumed, the sum sealing what the row hashes leave out (counts of `blocked` rows, rows from
 * before the chain), and an HMAC of all of it with AUDIT_CHAIN_KEY. See src/lib/server/audit/head.ts.
 */
export const auditChainHead = sqliteTable("audit_chain_head", {
  /** Always 1: the table holds one row. */
  id: integer("id").primaryKey().default(1),
  lastId: integer("last_id", { mode: "number" }),
  lastHash: text("last_hash").notNull(),
  prunedId: integer("pruned_id", { mode: "number" }),
  prunedHash: text("pruned_hash").notNull(),
  /** Sum mod 2^256 (hex) of one HMAC per `blocked` row's count and per row from before the chain. */
  sealedSum: text("sealed_sum").notNull(),
  /** Which AUDIT_CHAIN_KEY sealed it (a fingerprint), null when none was set. */
  keyId: text("key_id"),
  mac: text("mac"),
  updatedAt: integer("updated_at", { mode: "number" }).notNull(),
});

/**
 * One row per audit streaming destination (`webhook`, `syslog`): the audit rows themselves are the
 * outbox, this row holds how far the destination got and who delivers it. See src/lib/server/audit/stream/.
 */
export const auditDestinations = sqliteTable("audit_destinations", {
  name: text("name").primaryKey(),
  /** The last chain id delivered (0: none yet); the next batch starts after it. */
  deliveredId: integer("delivered_id", { mode: "number" }).notNull().default(0),
  /** When the last batch was acknowledged. */
  deliveredAt: integer("delivered_at", { mode: "number" }),
  /** 1 while an administrator paused it. */
  paused: integer("paused", { mode: "number" }).notNull().default(0),
  /** Why it stopped on its own (a 4xx the receiver will answer again); cleared by "retomar". */
  stoppedReason: text("stopped_reason"),
  lastError: text("last_error"),
  lastErrorAt: integer("last_error_at", { mode: "number" }),
  /** The instance that delivers it until `lease_until` (the database's clock, ms). */
  leaseOwner: text("lease_owner"),
  leaseUntil: integer("lease_until", { mode: "number" }).notNull().default(0),
  updatedAt: integer("updated_at", { mode: "number" }).notNull(),
  /** Set from the admin panel (issue 64): the receiver's address; null when the environment sets it (or nothing does). */
  url: text("url"),
  /** The signing secret, AES-256-GCM under AUDIT_DESTINATION_KEY (`iv.tag.ciphertext`, base64url); never returned by an API. */
  secretSealed: text("secret_sealed"),
  /** The secret before the last rotation, still signing until `previous_until` (the grace period). */
  previousSecretSealed: text("previous_secret_sealed"),
  previousUntil: integer("previous_until", { mode: "number" }),
  /** Bumped by every change of the panel's settings: the delivery loops rebuild their sender when it moves. */
  configVersion: integer("config_version", { mode: "number" }).notNull().default(0),
});
