CREATE TABLE "history_marks" (
	"id" integer PRIMARY KEY NOT NULL,
	"five_minutes_until" bigint NOT NULL,
	"hours_until" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "server_history" (
	"server_uuid" text NOT NULL,
	"step_ms" integer NOT NULL,
	"at" bigint NOT NULL,
	"players_min" integer,
	"players_avg" double precision,
	"players_max" integer,
	"samples" integer NOT NULL,
	"online" double precision NOT NULL,
	CONSTRAINT "server_history_server_uuid_step_ms_at_pk" PRIMARY KEY("server_uuid","step_ms","at")
);
--> statement-breakpoint
ALTER TABLE "server_history" ADD CONSTRAINT "server_history_server_uuid_servers_uuid_fk" FOREIGN KEY ("server_uuid") REFERENCES "public"."servers"("uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "server_history_step_at" ON "server_history" USING btree ("step_ms","at");--> statement-breakpoint
CREATE INDEX "server_samples_at" ON "server_samples" USING btree ("at");