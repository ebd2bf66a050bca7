CREATE INDEX `users_created_idx` ON `users` (`created_at`,`id`);--> statement-breakpoint
-- The user search's index (admin list and the audit log's user filter): a trigram full-text table over
-- each user's e-mail and name, case- and accent-insensitive, kept in step by triggers. It holds its own
-- copy of the text and the user's id (not the users' rowid, which VACUUM may renumber).
CREATE VIRTUAL TABLE `users_search` USING fts5(`user_id` UNINDEXED, `email`, `full_name`, tokenize = 'trigram remove_diacritics 1');
--> statement-breakpoint
INSERT INTO `users_search` (`user_id`, `email`, `full_name`) SELECT `id`, `email`, `full_name` FROM `users`;
--> statement-breakpoint
CREATE TRIGGER `users_search_insert` AFTER INSERT ON `users` BEGIN
	INSERT INTO `users_search` (`user_id`, `email`, `full_name`) VALUES (new.`id`, new.`email`, new.`full_name`);
END;
--> statement-breakpoint
CREATE TRIGGER `users_search_update` AFTER UPDATE OF `email`, `full_name` ON `users` BEGIN
	DELETE FROM `users_search` WHERE `users_search` MATCH 'email:"' || replace(old.`email`, '"', '""') || '"' AND `user_id` = old.`id`;
	INSERT INTO `users_search` (`user_id`, `email`, `full_name`) VALUES (new.`id`, new.`email`, new.`full_name`);
END;
--> statement-breakpoint
CREATE TRIGGER `users_search_delete` AFTER DELETE ON `users` BEGIN
	DELETE FROM `users_search` WHERE `users_search` MATCH 'email:"' || replace(old.`email`, '"', '""') || '"' AND `user_id` = old.`id`;
END;
