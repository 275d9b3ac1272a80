CREATE TABLE "evergreen_collections" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"created_by_user_id" uuid,
	"name" text NOT NULL,
	"integration_ids" jsonb NOT NULL,
	"min_days_between" integer NOT NULL,
	"end_after_cycles" integer,
	"end_at" timestamp with time zone,
	"paused" boolean DEFAULT false NOT NULL,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "evergreen_fills" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"collection_id" uuid NOT NULL,
	"source_post_id" uuid NOT NULL,
	"copy_post_id" uuid,
	"slot_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "evergreen_posts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"collection_id" uuid NOT NULL,
	"post_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "post_repeats" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"post_id" uuid NOT NULL,
	"created_by_user_id" uuid,
	"every" integer NOT NULL,
	"unit" text NOT NULL,
	"until" timestamp with time zone NOT NULL,
	"occurrences" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "evergreen_collections" ADD CONSTRAINT "evergreen_collections_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "evergreen_collections" ADD CONSTRAINT "evergreen_collections_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "evergreen_fills" ADD CONSTRAINT "evergreen_fills_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "evergreen_fills" ADD CONSTRAINT "evergreen_fills_collection_id_evergreen_collections_id_fk" FOREIGN KEY ("collection_id") REFERENCES "public"."evergreen_collections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "evergreen_fills" ADD CONSTRAINT "evergreen_fills_copy_post_id_posts_id_fk" FOREIGN KEY ("copy_post_id") REFERENCES "public"."posts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "evergreen_posts" ADD CONSTRAINT "evergreen_posts_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "evergreen_posts" ADD CONSTRAINT "evergreen_posts_collection_id_evergreen_collections_id_fk" FOREIGN KEY ("collection_id") REFERENCES "public"."evergreen_collections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "evergreen_posts" ADD CONSTRAINT "evergreen_posts_post_id_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "post_repeats" ADD CONSTRAINT "post_repeats_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "post_repeats" ADD CONSTRAINT "post_repeats_post_id_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "post_repeats" ADD CONSTRAINT "post_repeats_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "evergreen_collections_org_idx" ON "evergreen_collections" USING btree ("organization_id");--> statement-breakpoint
CREATE UNIQUE INDEX "evergreen_fills_collection_slot_key" ON "evergreen_fills" USING btree ("collection_id","slot_at");--> statement-breakpoint
CREATE INDEX "evergreen_fills_source_idx" ON "evergreen_fills" USING btree ("collection_id","source_post_id","slot_at");--> statement-breakpoint
CREATE UNIQUE INDEX "evergreen_posts_collection_post_key" ON "evergreen_posts" USING btree ("collection_id","post_id");--> statement-breakpoint
CREATE INDEX "evergreen_posts_post_idx" ON "evergreen_posts" USING btree ("post_id");--> statement-breakpoint
CREATE UNIQUE INDEX "post_repeats_post_key" ON "post_repeats" USING btree ("post_id");