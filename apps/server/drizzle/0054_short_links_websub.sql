CREATE TABLE "short_links" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"code" text NOT NULL,
	"organization_id" uuid NOT NULL,
	"post_id" uuid NOT NULL,
	"target_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"url" text NOT NULL,
	"clicks" integer DEFAULT 0 NOT NULL,
	"last_clicked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "feed_items" ADD COLUMN "attempts" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "feeds" ADD COLUMN "websub_hub" text;--> statement-breakpoint
ALTER TABLE "feeds" ADD COLUMN "websub_topic" text;--> statement-breakpoint
ALTER TABLE "feeds" ADD COLUMN "websub_state" text;--> statement-breakpoint
ALTER TABLE "feeds" ADD COLUMN "websub_nonce" text;--> statement-breakpoint
ALTER TABLE "feeds" ADD COLUMN "websub_requested_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "feeds" ADD COLUMN "websub_lease_expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "feeds" ADD COLUMN "websub_error" text;--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "short_links" boolean;--> statement-breakpoint
ALTER TABLE "short_links" ADD CONSTRAINT "short_links_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "short_links" ADD CONSTRAINT "short_links_post_id_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "short_links" ADD CONSTRAINT "short_links_target_id_post_targets_id_fk" FOREIGN KEY ("target_id") REFERENCES "public"."post_targets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "short_links_code_uq" ON "short_links" USING btree ("code");--> statement-breakpoint
CREATE UNIQUE INDEX "short_links_target_position_uq" ON "short_links" USING btree ("target_id","position");--> statement-breakpoint
CREATE INDEX "short_links_org_post_idx" ON "short_links" USING btree ("organization_id","post_id");--> statement-breakpoint
CREATE INDEX "feeds_websub_lease_idx" ON "feeds" USING btree ("websub_lease_expires_at");