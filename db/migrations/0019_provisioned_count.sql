CREATE TABLE `provisioned_count` (
	`slot` integer PRIMARY KEY DEFAULT 1 NOT NULL,
	`people` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
-- How many accounts the directory manages, kept by triggers whatever path writes users (SCIM, the
-- admin panel's link, a CLI, a cascade): SCIM's unfiltered list reads it for `totalResults`
-- instead of counting every provisioned row on each page. SQLite writes slot 1.
INSERT INTO `provisioned_count` (`slot`, `people`) SELECT 1, count(*) FROM `users` WHERE `provisioned_at` IS NOT NULL;
--> statement-breakpoint
CREATE TRIGGER `provisioned_count_insert` AFTER INSERT ON `users` WHEN new.`provisioned_at` IS NOT NULL BEGIN
	INSERT INTO `provisioned_count` (`slot`, `people`) VALUES (1, 1) ON CONFLICT (`slot`) DO UPDATE SET `people` = `people` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `provisioned_count_delete` AFTER DELETE ON `users` WHEN old.`provisioned_at` IS NOT NULL BEGIN
	INSERT INTO `provisioned_count` (`slot`, `people`) VALUES (1, -1) ON CONFLICT (`slot`) DO UPDATE SET `people` = `people` - 1;
END;
--> statement-breakpoint
CREATE TRIGGER `provisioned_count_update` AFTER UPDATE OF `provisioned_at` ON `users`
WHEN (old.`provisioned_at` IS NULL) <> (new.`provisioned_at` IS NULL) BEGIN
	INSERT INTO `provisioned_count` (`slot`, `people`) VALUES (1, CASE WHEN new.`provisioned_at` IS NULL THEN -1 ELSE 1 END)
	ON CONFLICT (`slot`) DO UPDATE SET `people` = `people` + excluded.`people`;
END;
