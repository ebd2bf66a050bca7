CREATE TABLE `audit_destinations` (
	`name` text PRIMARY KEY NOT NULL,
	`delivered_id` integer DEFAULT 0 NOT NULL,
	`delivered_at` integer,
	`paused` integer DEFAULT 0 NOT NULL,
	`stopped_reason` text,
	`last_error` text,
	`last_error_at` integer,
	`lease_owner` text,
	`lease_until` integer DEFAULT 0 NOT NULL,
	`updated_at` integer NOT NULL
);
