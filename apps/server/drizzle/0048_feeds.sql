CREATE TABLE "feed_items" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"feed_id" uuid NOT NULL,
	"guid" text,
	"link" text,
	"title" text,
	"published_at" timestamp with time zone,
	"outcome" text NOT NULL,
	"post_id" uuid,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "feeds" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"created_by_user_id" uuid,
	"url" text NOT NULL,
	"title" text,
	"integration_ids" jsonb NOT NULL,
	"destination" text NOT NULL,
	"template" text,
	"import_latest" integer DEFAULT 0 NOT NULL,
	"paused" boolean DEFAULT false NOT NULL,
	"primed_at" timestamp with time zone,
	"etag" text,
	"last_modified" text,
	"validators_url" text,
	"ttl_minutes" integer,
	"last_checked_at" timestamp with time zone,
	"last_success_at" timestamp with time zone,
	"next_check_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_error" text,
	"error_count" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "source" jsonb;--> statement-breakpoint
ALTER TABLE "feed_items" ADD CONSTRAINT "feed_items_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "feed_items" ADD CONSTRAINT "feed_items_feed_id_feeds_id_fk" FOREIGN KEY ("feed_id") REFERENCES "public"."feeds"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "feed_items" ADD CONSTRAINT "feed_items_post_id_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."posts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "feeds" ADD CONSTRAINT "feeds_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "feeds" ADD CONSTRAINT "feeds_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "feed_items_guid_uq" ON "feed_items" USING btree ("feed_id","guid") WHERE "feed_items"."guid" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "feed_items_link_uq" ON "feed_items" USING btree ("feed_id","link") WHERE "feed_items"."link" is not null;--> statement-breakpoint
CREATE INDEX "feed_items_feed_idx" ON "feed_items" USING btree ("feed_id","created_at");--> statement-breakpoint
CREATE INDEX "feeds_org_idx" ON "feeds" USING btree ("organization_id");--> statement-breakpoint
CREATE INDEX "feeds_due_idx" ON "feeds" USING btree ("next_check_at");