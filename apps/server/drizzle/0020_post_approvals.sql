CREATE TABLE "post_approval_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"post_id" uuid NOT NULL,
	"organization_id" uuid NOT NULL,
	"user_id" uuid,
	"action" text NOT NULL,
	"reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "require_post_approval" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "post_approval_events" ADD CONSTRAINT "post_approval_events_post_id_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "post_approval_events" ADD CONSTRAINT "post_approval_events_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "post_approval_events" ADD CONSTRAINT "post_approval_events_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "post_approval_events_post_idx" ON "post_approval_events" USING btree ("post_id","created_at");--> statement-breakpoint
-- Custom: the new post:approve permission for existing organizations' Admin and SocialMediaManager roles.
INSERT INTO "role_permissions" ("role_id", "permission")
SELECT "id", 'post:approve' FROM "roles" WHERE "is_admin" OR "name" = 'SocialMediaManager'
ON CONFLICT DO NOTHING;--> statement-breakpoint
-- Custom: an Admin narrowed at invitation still holds every permission.
UPDATE "members" SET "permissions" = array_append("permissions", 'post:approve')
WHERE "permissions" IS NOT NULL AND NOT ('post:approve' = ANY("permissions"))
  AND "role_id" IN (SELECT "id" FROM "roles" WHERE "is_admin");
