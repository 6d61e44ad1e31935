CREATE TABLE `replay_memory` (
	`id` integer PRIMARY KEY NOT NULL,
	`clock_skew_ms` integer NOT NULL,
	`covered_since` integer NOT NULL
);
