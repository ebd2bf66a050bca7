CREATE TABLE `audit_chain_head` (
	`id` integer PRIMARY KEY DEFAULT 1 NOT NULL,
	`last_id` integer,
	`last_hash` text NOT NULL,
	`pruned_id` integer,
	`pruned_hash` text NOT NULL,
	`sealed_sum` text NOT NULL,
	`key_id` text,
	`mac` text,
	`updated_at` integer NOT NULL
);
