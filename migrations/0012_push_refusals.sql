CREATE TABLE `push_refusals` (
	`server_uuid` text NOT NULL,
	`code` text NOT NULL,
	`token_id` integer NOT NULL,
	`count` integer NOT NULL,
	`last_at` integer NOT NULL,
	PRIMARY KEY(`server_uuid`, `code`, `token_id`)
);
--> statement-breakpoint
CREATE INDEX `push_refusals_last_at` ON `push_refusals` (`last_at`);