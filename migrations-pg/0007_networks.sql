CREATE TABLE "network_members" (
	"network_slug" text NOT NULL,
	"server_uuid" text NOT NULL,
	"position" integer NOT NULL,
	CONSTRAINT "network_members_network_slug_server_uuid_pk" PRIMARY KEY("network_slug","server_uuid")
);
--> statement-breakpoint
CREATE TABLE "networks" (
	"slug" text PRIMARY KEY NOT NULL,
	"token_id" bigint NOT NULL,
	"name" text NOT NULL,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "network_members" ADD CONSTRAINT "network_members_network_slug_networks_slug_fk" FOREIGN KEY ("network_slug") REFERENCES "public"."networks"("slug") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "network_members" ADD CONSTRAINT "network_members_server_uuid_servers_uuid_fk" FOREIGN KEY ("server_uuid") REFERENCES "public"."servers"("uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "networks" ADD CONSTRAINT "networks_token_id_tokens_id_fk" FOREIGN KEY ("token_id") REFERENCES "public"."tokens"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "network_members_server" ON "network_members" USING btree ("server_uuid");--> statement-breakpoint
CREATE INDEX "networks_token" ON "networks" USING btree ("token_id");