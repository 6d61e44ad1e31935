CREATE TABLE `history_marks` (
	`id` integer PRIMARY KEY NOT NULL,
	`five_minutes_until` integer NOT NULL,
	`hours_until` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `server_history` (
	`server_uuid` text NOT NULL,
	`step_ms` integer NOT NULL,
	`at` integer NOT NULL,
	`players_min` integer,
	`players_avg` real,
	`players_max` integer,
	`samples` integer NOT NULL,
	`online` real NOT NULL,
	PRIMARY KEY(`server_uuid`, `step_ms`, `at`),
	FOREIGN KEY (`server_uuid`) REFERENCES `servers`(`uuid`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `server_history_step_at` ON `server_history` (`step_ms`,`at`);--> statement-breakpoint
CREATE INDEX `server_samples_at` ON `server_samples` (`at`);