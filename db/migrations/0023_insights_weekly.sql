CREATE TABLE `insights_reader_weeks` (
	`page` text NOT NULL,
	`week` text NOT NULL,
	`filled` integer NOT NULL,
	`harmonic` integer NOT NULL,
	PRIMARY KEY(`page`, `week`)
);
--> statement-breakpoint
CREATE INDEX `insights_reader_weeks_week_idx` ON `insights_reader_weeks` (`week`,`page`);--> statement-breakpoint
CREATE TABLE `insights_reads_weekly` (
	`page` text NOT NULL,
	`week` integer NOT NULL,
	`role` text NOT NULL,
	`reads` integer NOT NULL,
	PRIMARY KEY(`page`, `week`, `role`)
);
--> statement-breakpoint
CREATE INDEX `insights_reads_weekly_role_idx` ON `insights_reads_weekly` (`role`,`week`,`page`,`reads`);--> statement-breakpoint
CREATE TABLE `insights_search_totals` (
	`query` text PRIMARY KEY NOT NULL,
	`searches` integer NOT NULL,
	`empty` integer NOT NULL,
	`opens` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `insights_votes_weekly` (
	`page` text NOT NULL,
	`week` integer NOT NULL,
	`helpful` integer NOT NULL,
	`votes` integer NOT NULL,
	PRIMARY KEY(`page`, `week`, `helpful`)
);

--> statement-breakpoint
-- Pre-summed tables kept by triggers (issue 43, speed): backfilled from the rows already stored, then every insert, update or delete of a day's row, a register, a vote or a day's searches changes its sum in the same transaction.
INSERT INTO `insights_reads_weekly` (`page`, `week`, `role`, `reads`) SELECT `page`, ((CAST(julianday(`day`) - 2440587.5 AS INTEGER) + 3) / 7), `role`, sum(`reads`) FROM `insights_reads` WHERE true GROUP BY 1, 2, 3;
--> statement-breakpoint
INSERT INTO `insights_reader_weeks` (`page`, `week`, `filled`, `harmonic`) SELECT `page`, `week`, count(*), sum((CASE WHEN `rank` > 52 THEN 0 ELSE 1 << (52 - `rank`) END)) FROM `insights_readers` WHERE true GROUP BY 1, 2;
--> statement-breakpoint
INSERT INTO `insights_votes_weekly` (`page`, `week`, `helpful`, `votes`) SELECT `page`, ((CAST(julianday(`day`) - 2440587.5 AS INTEGER) + 3) / 7), `helpful`, count(*) FROM `insights_votes` WHERE true GROUP BY 1, 2, 3;
--> statement-breakpoint
INSERT INTO `insights_search_totals` (`query`, `searches`, `empty`, `opens`) SELECT `query`, sum(`searches`), sum(`empty`), sum(`opens`) FROM `insights_searches` WHERE true GROUP BY 1;
--> statement-breakpoint
CREATE TRIGGER `insights_reads_weekly_insert` AFTER INSERT ON `insights_reads` BEGIN
  INSERT INTO `insights_reads_weekly` (`page`, `week`, `role`, `reads`) SELECT NEW.`page`, ((CAST(julianday(NEW.`day`) - 2440587.5 AS INTEGER) + 3) / 7), NEW.`role`, 0 WHERE NOT EXISTS (SELECT 1 FROM `insights_reads_weekly` WHERE `page` = NEW.`page` AND `week` = ((CAST(julianday(NEW.`day`) - 2440587.5 AS INTEGER) + 3) / 7) AND `role` = NEW.`role`);
  UPDATE `insights_reads_weekly` SET `reads` = `reads` + NEW.`reads` WHERE `page` = NEW.`page` AND `week` = ((CAST(julianday(NEW.`day`) - 2440587.5 AS INTEGER) + 3) / 7) AND `role` = NEW.`role`;
END;
--> statement-breakpoint
CREATE TRIGGER `insights_reads_weekly_update` AFTER UPDATE ON `insights_reads` WHEN NEW.`reads` <> OLD.`reads` OR NEW.`page` <> OLD.`page` OR NEW.`day` <> OLD.`day` OR NEW.`role` <> OLD.`role` BEGIN
  UPDATE `insights_reads_weekly` SET `reads` = `reads` - OLD.`reads` WHERE `page` = OLD.`page` AND `week` = ((CAST(julianday(OLD.`day`) - 2440587.5 AS INTEGER) + 3) / 7) AND `role` = OLD.`role`;
  INSERT INTO `insights_reads_weekly` (`page`, `week`, `role`, `reads`) SELECT NEW.`page`, ((CAST(julianday(NEW.`day`) - 2440587.5 AS INTEGER) + 3) / 7), NEW.`role`, 0 WHERE NOT EXISTS (SELECT 1 FROM `insights_reads_weekly` WHERE `page` = NEW.`page` AND `week` = ((CAST(julianday(NEW.`day`) - 2440587.5 AS INTEGER) + 3) / 7) AND `role` = NEW.`role`);
  UPDATE `insights_reads_weekly` SET `reads` = `reads` + NEW.`reads` WHERE `page` = NEW.`page` AND `week` = ((CAST(julianday(NEW.`day`) - 2440587.5 AS INTEGER) + 3) / 7) AND `role` = NEW.`role`;
END;
--> statement-breakpoint
CREATE TRIGGER `insights_reads_weekly_delete` AFTER DELETE ON `insights_reads` BEGIN
  UPDATE `insights_reads_weekly` SET `reads` = `reads` - OLD.`reads` WHERE `page` = OLD.`page` AND `week` = ((CAST(julianday(OLD.`day`) - 2440587.5 AS INTEGER) + 3) / 7) AND `role` = OLD.`role`;
  DELETE FROM `insights_reads_weekly` WHERE `page` = OLD.`page` AND `week` = ((CAST(julianday(OLD.`day`) - 2440587.5 AS INTEGER) + 3) / 7) AND `role` = OLD.`role` AND `reads` = 0;
END;
--> statement-breakpoint
CREATE TRIGGER `insights_reader_weeks_insert` AFTER INSERT ON `insights_readers` BEGIN
  INSERT INTO `insights_reader_weeks` (`page`, `week`, `filled`, `harmonic`) SELECT NEW.`page`, NEW.`week`, 0, 0 WHERE NOT EXISTS (SELECT 1 FROM `insights_reader_weeks` WHERE `page` = NEW.`page` AND `week` = NEW.`week`);
  UPDATE `insights_reader_weeks` SET `filled` = `filled` + 1, `harmonic` = `harmonic` + (CASE WHEN NEW.`rank` > 52 THEN 0 ELSE 1 << (52 - NEW.`rank`) END) WHERE `page` = NEW.`page` AND `week` = NEW.`week`;
END;
--> statement-breakpoint
CREATE TRIGGER `insights_reader_weeks_update` AFTER UPDATE ON `insights_readers` WHEN NEW.`rank` <> OLD.`rank` OR NEW.`page` <> OLD.`page` OR NEW.`week` <> OLD.`week` BEGIN
  UPDATE `insights_reader_weeks` SET `filled` = `filled` - 1, `harmonic` = `harmonic` - (CASE WHEN OLD.`rank` > 52 THEN 0 ELSE 1 << (52 - OLD.`rank`) END) WHERE `page` = OLD.`page` AND `week` = OLD.`week`;
  INSERT INTO `insights_reader_weeks` (`page`, `week`, `filled`, `harmonic`) SELECT NEW.`page`, NEW.`week`, 0, 0 WHERE NOT EXISTS (SELECT 1 FROM `insights_reader_weeks` WHERE `page` = NEW.`page` AND `week` = NEW.`week`);
  UPDATE `insights_reader_weeks` SET `filled` = `filled` + 1, `harmonic` = `harmonic` + (CASE WHEN NEW.`rank` > 52 THEN 0 ELSE 1 << (52 - NEW.`rank`) END) WHERE `page` = NEW.`page` AND `week` = NEW.`week`;
  DELETE FROM `insights_reader_weeks` WHERE `page` = OLD.`page` AND `week` = OLD.`week` AND `filled` = 0;
END;
--> statement-breakpoint
CREATE TRIGGER `insights_reader_weeks_delete` AFTER DELETE ON `insights_readers` BEGIN
  UPDATE `insights_reader_weeks` SET `filled` = `filled` - 1, `harmonic` = `harmonic` - (CASE WHEN OLD.`rank` > 52 THEN 0 ELSE 1 << (52 - OLD.`rank`) END) WHERE `page` = OLD.`page` AND `week` = OLD.`week`;
  DELETE FROM `insights_reader_weeks` WHERE `page` = OLD.`page` AND `week` = OLD.`week` AND `filled` = 0;
END;
--> statement-breakpoint
CREATE TRIGGER `insights_votes_weekly_insert` AFTER INSERT ON `insights_votes` BEGIN
  INSERT INTO `insights_votes_weekly` (`page`, `week`, `helpful`, `votes`) SELECT NEW.`page`, ((CAST(julianday(NEW.`day`) - 2440587.5 AS INTEGER) + 3) / 7), NEW.`helpful`, 0 WHERE NOT EXISTS (SELECT 1 FROM `insights_votes_weekly` WHERE `page` = NEW.`page` AND `week` = ((CAST(julianday(NEW.`day`) - 2440587.5 AS INTEGER) + 3) / 7) AND `helpful` = NEW.`helpful`);
  UPDATE `insights_votes_weekly` SET `votes` = `votes` + 1 WHERE `page` = NEW.`page` AND `week` = ((CAST(julianday(NEW.`day`) - 2440587.5 AS INTEGER) + 3) / 7) AND `helpful` = NEW.`helpful`;
END;
--> statement-breakpoint
CREATE TRIGGER `insights_votes_weekly_update` AFTER UPDATE ON `insights_votes` WHEN NEW.`helpful` <> OLD.`helpful` OR NEW.`page` <> OLD.`page` OR ((CAST(julianday(NEW.`day`) - 2440587.5 AS INTEGER) + 3) / 7) <> ((CAST(julianday(OLD.`day`) - 2440587.5 AS INTEGER) + 3) / 7) BEGIN
  UPDATE `insights_votes_weekly` SET `votes` = `votes` - 1 WHERE `page` = OLD.`page` AND `week` = ((CAST(julianday(OLD.`day`) - 2440587.5 AS INTEGER) + 3) / 7) AND `helpful` = OLD.`helpful`;
  DELETE FROM `insights_votes_weekly` WHERE `page` = OLD.`page` AND `week` = ((CAST(julianday(OLD.`day`) - 2440587.5 AS INTEGER) + 3) / 7) AND `helpful` = OLD.`helpful` AND `votes` = 0;
  INSERT INTO `insights_votes_weekly` (`page`, `week`, `helpful`, `votes`) SELECT NEW.`page`, ((CAST(julianday(NEW.`day`) - 2440587.5 AS INTEGER) + 3) / 7), NEW.`helpful`, 0 WHERE NOT EXISTS (SELECT 1 FROM `insights_votes_weekly` WHERE `page` = NEW.`page` AND `week` = ((CAST(julianday(NEW.`day`) - 2440587.5 AS INTEGER) + 3) / 7) AND `helpful` = NEW.`helpful`);
  UPDATE `insights_votes_weekly` SET `votes` = `votes` + 1 WHERE `page` = NEW.`page` AND `week` = ((CAST(julianday(NEW.`day`) - 2440587.5 AS INTEGER) + 3) / 7) AND `helpful` = NEW.`helpful`;
END;
--> statement-breakpoint
CREATE TRIGGER `insights_votes_weekly_delete` AFTER DELETE ON `insights_votes` BEGIN
  UPDATE `insights_votes_weekly` SET `votes` = `votes` - 1 WHERE `page` = OLD.`page` AND `week` = ((CAST(julianday(OLD.`day`) - 2440587.5 AS INTEGER) + 3) / 7) AND `helpful` = OLD.`helpful`;
  DELETE FROM `insights_votes_weekly` WHERE `page` = OLD.`page` AND `week` = ((CAST(julianday(OLD.`day`) - 2440587.5 AS INTEGER) + 3) / 7) AND `helpful` = OLD.`helpful` AND `votes` = 0;
END;
--> statement-breakpoint
CREATE TRIGGER `insights_search_totals_insert` AFTER INSERT ON `insights_searches` BEGIN
  INSERT INTO `insights_search_totals` (`query`, `searches`, `empty`, `opens`) SELECT NEW.`query`, 0, 0, 0 WHERE NOT EXISTS (SELECT 1 FROM `insights_search_totals` WHERE `query` = NEW.`query`);
  UPDATE `insights_search_totals` SET `searches` = `searches` + NEW.`searches`, `empty` = `empty` + NEW.`empty`, `opens` = `opens` + NEW.`opens` WHERE `query` = NEW.`query`;
END;
--> statement-breakpoint
CREATE TRIGGER `insights_search_totals_update` AFTER UPDATE ON `insights_searches` WHEN NEW.`searches` <> OLD.`searches` OR NEW.`empty` <> OLD.`empty` OR NEW.`opens` <> OLD.`opens` OR NEW.`query` <> OLD.`query` BEGIN
  UPDATE `insights_search_totals` SET `searches` = `searches` - OLD.`searches`, `empty` = `empty` - OLD.`empty`, `opens` = `opens` - OLD.`opens` WHERE `query` = OLD.`query`;
  INSERT INTO `insights_search_totals` (`query`, `searches`, `empty`, `opens`) SELECT NEW.`query`, 0, 0, 0 WHERE NOT EXISTS (SELECT 1 FROM `insights_search_totals` WHERE `query` = NEW.`query`);
  UPDATE `insights_search_totals` SET `searches` = `searches` + NEW.`searches`, `empty` = `empty` + NEW.`empty`, `opens` = `opens` + NEW.`opens` WHERE `query` = NEW.`query`;
  DELETE FROM `insights_search_totals` WHERE `query` = OLD.`query` AND `searches` = 0 AND `empty` = 0 AND `opens` = 0;
END;
--> statement-breakpoint
CREATE TRIGGER `insights_search_totals_delete` AFTER DELETE ON `insights_searches` BEGIN
  UPDATE `insights_search_totals` SET `searches` = `searches` - OLD.`searches`, `empty` = `empty` - OLD.`empty`, `opens` = `opens` - OLD.`opens` WHERE `query` = OLD.`query`;
  DELETE FROM `insights_search_totals` WHERE `query` = OLD.`query` AND `searches` = 0 AND `empty` = 0 AND `opens` = 0;
END;