-- The gate's session cache (change-counter.ts) is kept until a commit touches what a session's check reads:
-- these tables bump this one row, so commits elsewhere (the Insights flush every 5 s) leave the cache alone.
CREATE TABLE `cache_version` (`id` integer PRIMARY KEY NOT NULL, `version` integer NOT NULL);
--> statement-breakpoint
INSERT INTO `cache_version` (`id`, `version`) VALUES (1, 0);
--> statement-breakpoint
CREATE TRIGGER `users_insert_bump_cache_version` AFTER INSERT ON `users` BEGIN UPDATE `cache_version` SET `version` = `version` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `users_update_bump_cache_version` AFTER UPDATE ON `users` BEGIN UPDATE `cache_version` SET `version` = `version` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `users_delete_bump_cache_version` AFTER DELETE ON `users` BEGIN UPDATE `cache_version` SET `version` = `version` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `sessions_insert_bump_cache_version` AFTER INSERT ON `sessions` BEGIN UPDATE `cache_version` SET `version` = `version` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `sessions_update_bump_cache_version` AFTER UPDATE ON `sessions` BEGIN UPDATE `cache_version` SET `version` = `version` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `sessions_delete_bump_cache_version` AFTER DELETE ON `sessions` BEGIN UPDATE `cache_version` SET `version` = `version` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `roles_insert_bump_cache_version` AFTER INSERT ON `roles` BEGIN UPDATE `cache_version` SET `version` = `version` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `roles_update_bump_cache_version` AFTER UPDATE ON `roles` BEGIN UPDATE `cache_version` SET `version` = `version` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `roles_delete_bump_cache_version` AFTER DELETE ON `roles` BEGIN UPDATE `cache_version` SET `version` = `version` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `user_roles_insert_bump_cache_version` AFTER INSERT ON `user_roles` BEGIN UPDATE `cache_version` SET `version` = `version` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `user_roles_update_bump_cache_version` AFTER UPDATE ON `user_roles` BEGIN UPDATE `cache_version` SET `version` = `version` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `user_roles_delete_bump_cache_version` AFTER DELETE ON `user_roles` BEGIN UPDATE `cache_version` SET `version` = `version` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `pages_insert_bump_cache_version` AFTER INSERT ON `pages` BEGIN UPDATE `cache_version` SET `version` = `version` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `pages_update_bump_cache_version` AFTER UPDATE ON `pages` BEGIN UPDATE `cache_version` SET `version` = `version` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `pages_delete_bump_cache_version` AFTER DELETE ON `pages` BEGIN UPDATE `cache_version` SET `version` = `version` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `role_permissions_insert_bump_cache_version` AFTER INSERT ON `role_permissions` BEGIN UPDATE `cache_version` SET `version` = `version` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `role_permissions_update_bump_cache_version` AFTER UPDATE ON `role_permissions` BEGIN UPDATE `cache_version` SET `version` = `version` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `role_permissions_delete_bump_cache_version` AFTER DELETE ON `role_permissions` BEGIN UPDATE `cache_version` SET `version` = `version` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `two_factor_secrets_insert_bump_cache_version` AFTER INSERT ON `two_factor_secrets` BEGIN UPDATE `cache_version` SET `version` = `version` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `two_factor_secrets_update_bump_cache_version` AFTER UPDATE ON `two_factor_secrets` BEGIN UPDATE `cache_version` SET `version` = `version` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `two_factor_secrets_delete_bump_cache_version` AFTER DELETE ON `two_factor_secrets` BEGIN UPDATE `cache_version` SET `version` = `version` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `page_audience_insert_bump_cache_version` AFTER INSERT ON `page_audience` BEGIN UPDATE `cache_version` SET `version` = `version` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `page_audience_update_bump_cache_version` AFTER UPDATE ON `page_audience` BEGIN UPDATE `cache_version` SET `version` = `version` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `page_audience_delete_bump_cache_version` AFTER DELETE ON `page_audience` BEGIN UPDATE `cache_version` SET `version` = `version` + 1 WHERE `id` = 1; END;
