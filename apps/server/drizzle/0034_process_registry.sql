CREATE TABLE "herald_processes" (
	"id" uuid PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"host" text NOT NULL,
	"pid" integer NOT NULL,
	"data_dir" text NOT NULL,
	"media_storage" text NOT NULL,
	"media_dir" text,
	"media_folder_id" text,
	"version" text NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"heartbeat_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "post_targets" ADD COLUMN "held_by" uuid;