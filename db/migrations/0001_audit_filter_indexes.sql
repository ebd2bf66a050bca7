DROP INDEX `audit_logs_user_idx`;--> statement-breakpoint
DROP INDEX `audit_logs_action_idx`;--> statement-breakpoint
CREATE INDEX `audit_logs_user_created_idx` ON `audit_logs` (`user_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `audit_logs_action_created_idx` ON `audit_logs` (`action_type`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `audit_logs_result_created_idx` ON `audit_logs` (`result`,`created_at`,`id`);