ALTER TABLE `users` ADD `resource_modified_at` integer;--> statement-breakpoint
ALTER TABLE `users` ADD `resource_version` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE `directory_groups` ADD `resource_version` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
-- A SCIM resource's `meta.lastModified` and `meta.version` follow every change of what the resource
-- shows, whichever code path made it (the directory, the admin panel, a CLI, a cascade): triggers,
-- not each caller, keep `resource_modified_at`/`updated_at` and `resource_version`. A User shows its
-- groups' names and a Group its members' e-mails, so each side moves with the other.
CREATE TRIGGER `users_resource_changed` AFTER UPDATE OF `email`, `full_name`, `external_id`, `deactivated_at`, `directory_resource` ON `users`
WHEN old.`email` IS NOT new.`email` OR old.`full_name` IS NOT new.`full_name` OR old.`external_id` IS NOT new.`external_id`
	OR old.`deactivated_at` IS NOT new.`deactivated_at` OR old.`directory_resource` IS NOT new.`directory_resource`
BEGIN
	UPDATE `users` SET `resource_modified_at` = CAST(unixepoch('subsec') * 1000 AS INTEGER), `resource_version` = `resource_version` + 1 WHERE `id` = new.`id`;
	UPDATE `directory_groups` SET `updated_at` = CAST(unixepoch('subsec') * 1000 AS INTEGER), `resource_version` = `resource_version` + 1
		WHERE old.`email` IS NOT new.`email` AND `id` IN (SELECT `group_id` FROM `directory_group_members` WHERE `user_id` = new.`id`);
END;
--> statement-breakpoint
CREATE TRIGGER `directory_groups_changed` AFTER UPDATE OF `display_name`, `external_id` ON `directory_groups`
WHEN old.`display_name` IS NOT new.`display_name` OR old.`external_id` IS NOT new.`external_id`
BEGIN
	UPDATE `directory_groups` SET `updated_at` = CAST(unixepoch('subsec') * 1000 AS INTEGER), `resource_version` = `resource_version` + 1 WHERE `id` = new.`id`;
	UPDATE `users` SET `resource_modified_at` = CAST(unixepoch('subsec') * 1000 AS INTEGER), `resource_version` = `resource_version` + 1
		WHERE old.`display_name` IS NOT new.`display_name` AND `id` IN (SELECT `user_id` FROM `directory_group_members` WHERE `group_id` = new.`id`);
END;
--> statement-breakpoint
CREATE TRIGGER `directory_members_added` AFTER INSERT ON `directory_group_members` BEGIN
	UPDATE `users` SET `resource_modified_at` = CAST(unixepoch('subsec') * 1000 AS INTEGER), `resource_version` = `resource_version` + 1 WHERE `id` = new.`user_id`;
	UPDATE `directory_groups` SET `updated_at` = CAST(unixepoch('subsec') * 1000 AS INTEGER), `resource_version` = `resource_version` + 1 WHERE `id` = new.`group_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `directory_members_removed` AFTER DELETE ON `directory_group_members` BEGIN
	UPDATE `users` SET `resource_modified_at` = CAST(unixepoch('subsec') * 1000 AS INTEGER), `resource_version` = `resource_version` + 1 WHERE `id` = old.`user_id`;
	UPDATE `directory_groups` SET `updated_at` = CAST(unixepoch('subsec') * 1000 AS INTEGER), `resource_version` = `resource_version` + 1 WHERE `id` = old.`group_id`;
END;
