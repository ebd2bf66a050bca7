CREATE TABLE `reading_confirmations` (
	`user_id` text NOT NULL,
	`page_path` text NOT NULL,
	`version` integer NOT NULL,
	`confirmed_at` integer NOT NULL,
	PRIMARY KEY(`user_id`, `page_path`, `version`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `reading_confirmations_page_idx` ON `reading_confirmations` (`page_path`,`version`);--> statement-breakpoint
CREATE TABLE `reading_news_visits` (
	`user_id` text PRIMARY KEY NOT NULL,
	`seen_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
