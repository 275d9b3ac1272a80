CREATE TABLE "network_quota_usage" (
	"network" text NOT NULL,
	"day" text NOT NULL,
	"bucket" text NOT NULL,
	"used" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "network_quota_usage_network_day_bucket_pk" PRIMARY KEY("network","day","bucket")
);
--> statement-breakpoint
-- YouTube joins the networks (docs/networks.md#youtube): one video, and an image beside it that
-- becomes its thumbnail; the post's text is the video's description.
INSERT INTO "platforms" ("name", "is_active", "media_constraints") VALUES
  ('YouTube', true, '{"text":{"maxLength":5000,"counting":"codepoints","textOnlyAllowed":false},"maxMediaPerPost":2,"image":{"allowedMimeTypes":["image/jpeg","image/png"],"maxFileSize":2097152,"maxCount":1},"video":{"allowedMimeTypes":["video/mp4","video/quicktime","video/webm","video/x-msvideo","video/mpeg","video/3gpp"],"maxFileSize":274877906944,"maxDuration":43200,"maxCount":1}}')
ON CONFLICT DO NOTHING;
