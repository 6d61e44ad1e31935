ALTER TABLE `webhooks` ADD `grace_ms` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `webhooks` ADD `told_state` text;--> statement-breakpoint
ALTER TABLE `webhooks` ADD `interval_ms` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `webhooks` ADD `message_id` text;--> statement-breakpoint
ALTER TABLE `webhooks` ADD `shown` text;--> statement-breakpoint
ALTER TABLE `webhooks` ADD `live_next_at` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `webhooks` ADD `live_leased_until` integer DEFAULT 0 NOT NULL;