CREATE TABLE `plugins` (
	`uuid` text PRIMARY KEY NOT NULL,
	`token_id` integer NOT NULL,
	`name` text,
	`version` text,
	`stats` text DEFAULT '{}' NOT NULL,
	`meta` text DEFAULT '{}' NOT NULL,
	`minecraft_versions` text DEFAULT '[]' NOT NULL,
	`server_software` text DEFAULT '[]' NOT NULL,
	`first_seen` integer NOT NULL,
	`last_seen` integer NOT NULL,
	FOREIGN KEY (`token_id`) REFERENCES `tokens`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `server_samples` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`server_uuid` text NOT NULL,
	`at` integer NOT NULL,
	`players_online` integer,
	`players_max` integer,
	`tps` real,
	FOREIGN KEY (`server_uuid`) REFERENCES `servers`(`uuid`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `server_samples_server_at` ON `server_samples` (`server_uuid`,`at`);--> statement-breakpoint
CREATE TABLE `servers` (
	`uuid` text PRIMARY KEY NOT NULL,
	`token_id` integer NOT NULL,
	`name` text,
	`plugin_version` text,
	`status` text,
	`players_online` integer,
	`players_max` integer,
	`tps` real,
	`motd` text,
	`version` text,
	`extra` text,
	`first_seen` integer NOT NULL,
	`last_seen` integer NOT NULL,
	`stats_updated_at` integer,
	FOREIGN KEY (`token_id`) REFERENCES `tokens`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `tokens` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`hash` text NOT NULL,
	`scope` text NOT NULL,
	`label` text DEFAULT '' NOT NULL,
	`origin` text NOT NULL,
	`created_at` integer NOT NULL,
	`last_used_at` integer,
	`revoked_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `tokens_hash_unique` ON `tokens` (`hash`);--> statement-breakpoint
CREATE TABLE `used_signatures` (
	`signature` text PRIMARY KEY NOT NULL,
	`expires_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `used_signatures_expires` ON `used_signatures` (`expires_at`);