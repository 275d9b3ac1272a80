ALTER TABLE "post_targets" ADD COLUMN "publish_state" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "post_targets" ADD COLUMN "due_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "post_targets" ADD COLUMN "job_id" uuid;--> statement-breakpoint
ALTER TABLE "post_targets" ADD COLUMN "lateness_ms" integer;--> statement-breakpoint
ALTER TABLE "post_targets" ADD COLUMN "embed" jsonb;