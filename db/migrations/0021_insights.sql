CREATE TABLE `insights_comments` (
	`id` text PRIMARY KEY NOT NULL,
	`page` text NOT NULL,
	`version` text NOT NULL,
	`helpful` integer NOT NULL,
	`reason` text,
	`body` text NOT NULL,
	`user_id` text,
	`day` text NOT NULL,
	`status` text DEFAULT 'nova' NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `insights_comments_page_idx` ON `insights_comments` (`page`,`day`);--> statement-breakpoint
CREATE INDEX `insights_comments_day_idx` ON `insights_comments` (`day`);--> statement-breakpoint
CREATE TABLE `insights_keys` (
	`name` text PRIMARY KEY NOT NULL,
	`secret` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `insights_queries` (
	`query` text PRIMARY KEY NOT NULL,
	`people` integer NOT NULL,
	`last_day` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `insights_queries_last_day_idx` ON `insights_queries` (`last_day`);--> statement-breakpoint
CREATE TABLE `insights_query_people` (
	`query` text NOT NULL,
	`person` text NOT NULL,
	PRIMARY KEY(`query`, `person`)
);
--> statement-breakpoint
CREATE TABLE `insights_readers` (
	`page` text NOT NULL,
	`week` text NOT NULL,
	`register` integer NOT NULL,
	`rank` integer NOT NULL,
	PRIMARY KEY(`page`, `week`, `register`)
);
--> statement-breakpoint
CREATE INDEX `insights_readers_week_idx` ON `insights_readers` (`week`,`page`,`rank`);--> statement-breakpoint
CREATE TABLE `insights_reads` (
	`page` text NOT NULL,
	`day` text NOT NULL,
	`role` text NOT NULL,
	`reads` integer NOT NULL,
	PRIMARY KEY(`page`, `day`, `role`)
);
--> statement-breakpoint
CREATE INDEX `insights_reads_role_day_idx` ON `insights_reads` (`role`,`day`,`page`,`reads`);--> statement-breakpoint
CREATE TABLE `insights_searches` (
	`query` text NOT NULL,
	`day` text NOT NULL,
	`searches` integer NOT NULL,
	`empty` integer NOT NULL,
	`opens` integer NOT NULL,
	PRIMARY KEY(`query`, `day`)
);
--> statement-breakpoint
CREATE INDEX `insights_searches_day_idx` ON `insights_searches` (`day`,`query`,`searches`,`empty`,`opens`);--> statement-breakpoint
CREATE TABLE `insights_votes` (
	`vote_key` text PRIMARY KEY NOT NULL,
	`page` text NOT NULL,
	`version` text NOT NULL,
	`helpful` integer NOT NULL,
	`reason` text,
	`day` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `insights_votes_page_idx` ON `insights_votes` (`page`,`version`);--> statement-breakpoint
CREATE INDEX `insights_votes_day_idx` ON `insights_votes` (`day`,`page`,`helpful`);