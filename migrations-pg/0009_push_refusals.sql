CREATE TABLE "push_refusals" (
	"server_uuid" text NOT NULL,
	"code" text NOT NULL,
	"token_id" bigint NOT NULL,
	"count" bigint NOT NULL,
	"last_at" bigint NOT NULL,
	CONSTRAINT "push_refusals_server_uuid_code_token_id_pk" PRIMARY KEY("server_uuid","code","token_id")
);
--> statement-breakpoint
CREATE INDEX "push_refusals_last_at" ON "push_refusals" USING btree ("last_at");