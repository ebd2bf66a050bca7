CREATE TABLE `page_audience` (
	`page_id` integer NOT NULL,
	`role_id` integer NOT NULL,
	PRIMARY KEY(`page_id`, `role_id`),
	FOREIGN KEY (`page_id`) REFERENCES `pages`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`role_id`) REFERENCES `roles`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `pages` ADD `audience_override` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `pages` ADD `access_version` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `roles` ADD `access_limited` integer DEFAULT false NOT NULL;