-- Folds the samples of each server and minute (at / 60000) into one row, so
-- that the next migration's unique index on (server, minute) fits the rows
-- kept when every update appended a sample. The row kept is the minute's
-- latest (greatest `at`, then greatest id), holding its players_max and tps
-- and the minute's highest players_online (the banner plots the highest).
UPDATE `server_samples` SET `players_online` = (
	SELECT max(`peer`.`players_online`) FROM `server_samples` AS `peer`
	WHERE `peer`.`server_uuid` = `server_samples`.`server_uuid`
		AND `peer`.`at` >= `server_samples`.`at` / 60000 * 60000
		AND `peer`.`at` < (`server_samples`.`at` / 60000 + 1) * 60000
);
--> statement-breakpoint
DELETE FROM `server_samples` WHERE EXISTS (
	SELECT 1 FROM `server_samples` AS `later`
	WHERE `later`.`server_uuid` = `server_samples`.`server_uuid`
		AND `later`.`at` < (`server_samples`.`at` / 60000 + 1) * 60000
		AND (`later`.`at` > `server_samples`.`at` OR (`later`.`at` = `server_samples`.`at` AND `later`.`id` > `server_samples`.`id`))
);
