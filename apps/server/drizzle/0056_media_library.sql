CREATE TABLE "media_library_items" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"storage_key" text NOT NULL,
	"thumbnail_key" text,
	"file_name" text NOT NULL,
	"mime_type" text NOT NULL,
	"kind" text NOT NULL,
	"size" bigint NOT NULL,
	"width" integer,
	"height" integer,
	"duration_sec" double precision,
	"sha256" text NOT NULL,
	"alt_text" text,
	"tags" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"uploaded_by_user_id" uuid,
	"derived_from_id" uuid,
	"crop_ratio" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "post_media" ADD COLUMN "library_item_id" uuid;--> statement-breakpoint
ALTER TABLE "media_library_items" ADD CONSTRAINT "media_library_items_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "media_library_items" ADD CONSTRAINT "media_library_items_uploaded_by_user_id_users_id_fk" FOREIGN KEY ("uploaded_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "media_library_items_org_sha_key" ON "media_library_items" USING btree ("organization_id","sha256");--> statement-breakpoint
CREATE INDEX "media_library_items_org_created_idx" ON "media_library_items" USING btree ("organization_id","created_at");--> statement-breakpoint
ALTER TABLE "post_media" ADD CONSTRAINT "post_media_library_item_id_media_library_items_id_fk" FOREIGN KEY ("library_item_id") REFERENCES "public"."media_library_items"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "post_media_library_item_idx" ON "post_media" USING btree ("library_item_id");--> statement-breakpoint
-- Files stored before the library (docs/media-library.md) become its items: one per content, the
-- oldest copy, uploaded by its post's creator. Every post file of that content points at it;
-- the other copies stay with their posts and go with them.
INSERT INTO "media_library_items" ("organization_id", "storage_key", "thumbnail_key", "file_name", "mime_type", "kind", "size", "width", "height", "duration_sec", "sha256", "alt_text", "uploaded_by_user_id", "created_at")
SELECT DISTINCT ON (pm."organization_id", pm."sha256")
  pm."organization_id", pm."storage_key", pm."thumbnail_key", pm."file_name", pm."mime_type", pm."kind", pm."size",
  pm."width", pm."height", pm."duration_sec", pm."sha256", pm."alt_text", p."created_by_user_id", pm."created_at"
FROM "post_media" pm
JOIN "posts" p ON p."id" = pm."post_id"
ORDER BY pm."organization_id", pm."sha256", pm."created_at", pm."id";
--> statement-breakpoint
UPDATE "post_media" pm SET "library_item_id" = li."id"
FROM "media_library_items" li
WHERE li."organization_id" = pm."organization_id" AND li."sha256" = pm."sha256";
