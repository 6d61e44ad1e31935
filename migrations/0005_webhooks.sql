CREATE TABLE `webhook_deliveries` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`webhook_id` text NOT NULL,
	`body` text NOT NULL,
	`created_at` integer NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_at` integer NOT NULL,
	`leased_until` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`webhook_id`) REFERENCES `webhooks`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `webhook_deliveries_next` ON `webhook_deliveries` (`next_at`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_webhook` ON `webhook_deliveries` (`webhook_id`);--> statement-breakpoint
CREATE TABLE `webhook_states` (
	`server_uuid` text PRIMARY KEY NOT NULL,
	`state` text NOT NULL,
	`changed_at` integer NOT NULL,
	FOREIGN KEY (`server_uuid`) REFERENCES `servers`(`uuid`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `webhooks` (
	`id` text PRIMARY KEY NOT NULL,
	`server_uuid` text NOT NULL,
	`url` text NOT NULL,
	`events` text NOT NULL,
	`format` text NOT NULL,
	`secret` text NOT NULL,
	`request_key` text NOT NULL,
	`created_at` integer NOT NULL,
	`failing_since` integer,
	`paused_at` integer,
	`last_status` integer,
	`last_delivery_at` integer,
	`dropped` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`server_uuid`) REFERENCES `servers`(`uuid`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `webhooks_request_key_unique` ON `webhooks` (`request_key`);--> statement-breakpoint
CREATE INDEX `webhooks_server` ON `webhooks` (`server_uuid`);