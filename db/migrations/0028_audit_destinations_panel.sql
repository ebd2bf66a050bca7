ALTER TABLE `audit_destinations` ADD `url` text;--> statement-breakpoint
ALTER TABLE `audit_destinations` ADD `secret_sealed` text;--> statement-breakpoint
ALTER TABLE `audit_destinations` ADD `previous_secret_sealed` text;--> statement-breakpoint
ALTER TABLE `audit_destinations` ADD `previous_until` integer;--> statement-breakpoint
ALTER TABLE `audit_destinations` ADD `config_version` integer DEFAULT 0 NOT NULL;