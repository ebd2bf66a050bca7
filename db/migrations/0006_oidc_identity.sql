ALTER TABLE `users` ADD `oidc_issuer` text;--> statement-breakpoint
ALTER TABLE `users` ADD `oidc_subject` text;--> statement-breakpoint
CREATE UNIQUE INDEX `users_oidc_identity_unique` ON `users` (`oidc_issuer`,`oidc_subject`);--> statement-breakpoint
CREATE INDEX `users_pending_created_idx` ON `users` (`email_confirmed_at`,`created_at`);