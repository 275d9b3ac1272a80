ALTER TABLE "notifications" ADD COLUMN "outcome_key" text;--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "resolved_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "notifications_post_idx" ON "notifications" USING btree ("post_id","outcome_key") WHERE post_id is not null;