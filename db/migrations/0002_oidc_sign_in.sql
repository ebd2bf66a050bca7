CREATE TABLE `oidc_sign_in_attempts` (
	`state_hash` text PRIMARY KEY NOT NULL,
	`code_verifier` text NOT NULL,
	`nonce` text NOT NULL,
	`next_path` text NOT NULL,
	`expires_at` integer NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `oidc_sign_in_attempts_expires_idx` ON `oidc_sign_in_attempts` (`expires_at`);--> statement-breakpoint
ALTER TABLE `user_roles` ADD `source` text DEFAULT 'manual' NOT NULL;