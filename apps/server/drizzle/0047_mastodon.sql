CREATE TABLE "network_instance_apps" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"network" text NOT NULL,
	"instance" text NOT NULL,
	"redirect_uri" text NOT NULL,
	"client_id_enc" text NOT NULL,
	"client_secret_enc" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "network_instance_apps_key" ON "network_instance_apps" USING btree ("network","instance","redirect_uri");
--> statement-breakpoint
-- Mastodon joins the networks (docs/networks.md#mastodon): a stock server's limits; each account
-- keeps its own server's text limit.
INSERT INTO "platforms" ("name", "is_active", "media_constraints") VALUES
  ('Mastodon', true, '{"text":{"maxLength":500,"counting":"urls-23","textOnlyAllowed":true},"maxMediaPerPost":4,"image":{"allowedMimeTypes":["image/jpeg","image/png","image/gif","image/webp"],"maxFileSize":16777216,"maxCount":4},"video":{"allowedMimeTypes":["video/mp4","video/quicktime","video/webm"],"maxFileSize":103809024,"maxCount":1}}')
ON CONFLICT DO NOTHING;
