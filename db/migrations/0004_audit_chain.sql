CREATE TABLE `audit_chain_checkpoints` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`last_pruned_id` integer NOT NULL,
	`last_pruned_hash` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE `audit_logs` ADD `hash` text;