ALTER TABLE "webhooks" ADD COLUMN "grace_ms" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "webhooks" ADD COLUMN "told_state" text;--> statement-breakpoint
ALTER TABLE "webhooks" ADD COLUMN "interval_ms" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "webhooks" ADD COLUMN "message_id" text;--> statement-breakpoint
ALTER TABLE "webhooks" ADD COLUMN "shown" text;--> statement-breakpoint
ALTER TABLE "webhooks" ADD COLUMN "live_next_at" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "webhooks" ADD COLUMN "live_leased_until" bigint DEFAULT 0 NOT NULL;