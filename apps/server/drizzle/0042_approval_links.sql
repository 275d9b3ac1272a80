CREATE TABLE "approval_link_posts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"link_id" uuid NOT NULL,
	"organization_id" uuid NOT NULL,
	"post_id" uuid,
	"position" integer NOT NULL,
	"label" text NOT NULL,
	"post_updated_at" timestamp with time zone NOT NULL,
	"decision" text,
	"comment" text,
	"decided_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "approval_links" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"token_hash" text NOT NULL,
	"approver_name" text,
	"approver_email" text,
	"message" text,
	"created_by_user_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	"revoked_by_user_id" uuid
);
--> statement-breakpoint
ALTER TABLE "post_approval_events" ADD COLUMN "guest_name" text;--> statement-breakpoint
ALTER TABLE "post_approval_events" ADD COLUMN "guest_email" text;--> statement-breakpoint
ALTER TABLE "approval_link_posts" ADD CONSTRAINT "approval_link_posts_link_id_approval_links_id_fk" FOREIGN KEY ("link_id") REFERENCES "public"."approval_links"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "approval_link_posts" ADD CONSTRAINT "approval_link_posts_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "approval_link_posts" ADD CONSTRAINT "approval_link_posts_post_id_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."posts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "approval_links" ADD CONSTRAINT "approval_links_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "approval_links" ADD CONSTRAINT "approval_links_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "approval_links" ADD CONSTRAINT "approval_links_revoked_by_user_id_users_id_fk" FOREIGN KEY ("revoked_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "approval_link_posts_link_idx" ON "approval_link_posts" USING btree ("link_id","position");--> statement-breakpoint
CREATE INDEX "approval_link_posts_post_idx" ON "approval_link_posts" USING btree ("post_id");--> statement-breakpoint
CREATE UNIQUE INDEX "approval_links_token_key" ON "approval_links" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "approval_links_org_created_idx" ON "approval_links" USING btree ("organization_id","created_at");