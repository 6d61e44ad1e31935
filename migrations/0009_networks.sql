CREATE TABLE `network_members` (
	`network_slug` text NOT NULL,
	`server_uuid` text NOT NULL,
	`position` integer NOT NULL,
	PRIMARY KEY(`network_slug`, `server_uuid`),
	FOREIGN KEY (`network_slug`) REFERENCES `networks`(`slug`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`server_uuid`) REFERENCES `servers`(`uuid`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `network_members_server` ON `network_members` (`server_uuid`);--> statement-breakpoint
CREATE TABLE `networks` (
	`slug` text PRIMARY KEY NOT NULL,
	`token_id` integer NOT NULL,
	`name` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`token_id`) REFERENCES `tokens`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `networks_token` ON `networks` (`token_id`);