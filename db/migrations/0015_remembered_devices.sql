CREATE TABLE `remembered_devices` (
	`token_hash` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `remembered_devices_user_idx` ON `remembered_devices` (`user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `remembered_devices_expires_idx` ON `remembered_devices` (`expires_at`);