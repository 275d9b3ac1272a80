CREATE TABLE "account_write_pauses" (
	"network" text NOT NULL,
	"account" text NOT NULL,
	"until" timestamp with time zone NOT NULL,
	CONSTRAINT "account_write_pauses_network_account_pk" PRIMARY KEY("network","account")
);
--> statement-breakpoint
CREATE TABLE "account_write_points" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"network" text NOT NULL,
	"account" text NOT NULL,
	"points" integer NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "account_write_points_account_at" ON "account_write_points" USING btree ("network","account","at");--> statement-breakpoint
-- Bluesky's video service takes videos of up to three minutes (docs/networks.md#bluesky-limits).
UPDATE "platforms" SET "media_constraints" = '{"text":{"maxLength":300,"counting":"graphemes","textOnlyAllowed":true},"maxMediaPerPost":4,"image":{"allowedMimeTypes":["image/jpeg","image/png","image/webp","image/gif"],"maxFileSize":2000000,"maxCount":4},"video":{"allowedMimeTypes":["video/mp4"],"maxFileSize":100000000,"maxDuration":180,"maxCount":1}}'::jsonb WHERE "name" = 'Bluesky';
