CREATE TABLE "post_internal_comments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"post_id" uuid NOT NULL,
	"organization_id" uuid NOT NULL,
	"user_id" uuid,
	"body" text NOT NULL,
	"mentioned_user_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "link_tracking" jsonb;--> statement-breakpoint
ALTER TABLE "post_media" ADD COLUMN "alt_text" text;--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "link_tracking" jsonb;--> statement-breakpoint
ALTER TABLE "post_internal_comments" ADD CONSTRAINT "post_internal_comments_post_id_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "post_internal_comments" ADD CONSTRAINT "post_internal_comments_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "post_internal_comments" ADD CONSTRAINT "post_internal_comments_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "post_internal_comments_post_idx" ON "post_internal_comments" USING btree ("post_id","created_at");