CREATE TABLE `reading_digest_sends` (
	`user_id` text NOT NULL,
	`week` text NOT NULL,
	`claimed_at` integer NOT NULL,
	`sent_at` integer,
	PRIMARY KEY(`user_id`, `week`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
DROP INDEX `reading_confirmations_page_idx`;--> statement-breakpoint
CREATE INDEX `reading_confirmations_page_idx` ON `reading_confirmations` (`page_path`,`version`,`user_id`);--> statement-breakpoint
ALTER TABLE `users` ADD `reading_digest_opt_out` integer DEFAULT false NOT NULL;